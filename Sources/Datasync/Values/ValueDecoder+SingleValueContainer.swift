/// The decoder is its own single-value container, over the current value (as `JSONDecoder`).
extension ValueDecoder: SingleValueDecodingContainer {
  func decodeNil() -> Bool {
    if case .null = value { return true }
    return false
  }

  func decode(_ type: Bool.Type) throws -> Bool {
    try bool(value, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: String.Type) throws -> String {
    try string(value, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Double.Type) throws -> Double {
    try double(value, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Float.Type) throws -> Float {
    try float(value, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Int.Type) throws -> Int {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Int8.Type) throws -> Int8 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Int16.Type) throws -> Int16 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Int32.Type) throws -> Int32 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Int64.Type) throws -> Int64 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: Int128.Type) throws -> Int128 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: UInt.Type) throws -> UInt {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: UInt8.Type) throws -> UInt8 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: UInt16.Type) throws -> UInt16 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: UInt32.Type) throws -> UInt32 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: UInt64.Type) throws -> UInt64 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode(_ type: UInt128.Type) throws -> UInt128 {
    try integer(value, as: type, in: path, key: ValueDecodingKey?.none)
  }

  func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try unwrap(value, as: type, in: path, key: ValueDecodingKey?.none)
  }
}
