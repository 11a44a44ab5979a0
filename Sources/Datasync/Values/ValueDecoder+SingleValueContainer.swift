/// The decoder is its own single-value container, over the current value (as `JSONDecoder`).
extension ValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  /// The scalar `result`, or the error for decoding the current value as `type`.
  private func current<T>(_ result: T?, _ type: T.Type) throws -> T {
    guard let result else { throw failure(decoding: type, from: value, at: path.keys) }
    return result
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try current(bool(value), type)
  }

  func decode(_ type: String.Type) throws -> String {
    try current(string(value), type)
  }

  func decode(_ type: Double.Type) throws -> Double {
    try current(double(value), type)
  }

  func decode(_ type: Float.Type) throws -> Float {
    try current(float(value), type)
  }

  func decode(_ type: Int.Type) throws -> Int {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: Int8.Type) throws -> Int8 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: Int16.Type) throws -> Int16 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: Int32.Type) throws -> Int32 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: Int64.Type) throws -> Int64 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: Int128.Type) throws -> Int128 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: UInt.Type) throws -> UInt {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try current(integer(value, as: type), type)
  }

  func decode(_ type: UInt128.Type) throws -> UInt128 {
    try current(integer(value, as: type), type)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(value, as: type, at: path)
  }
}
