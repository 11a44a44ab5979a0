/// The single-value container of ``ValueEncoder``: the value becomes the encoder's own.
struct ValueEncoderSingleValueContainer: SingleValueEncodingContainer {
  let encoding: ValueEncoding

  var codingPath: [any CodingKey] { encoding.codingPath }

  /// Stores a finished value, once.
  private func store(_ value: @autoclosure () throws(WebcomError) -> JSONValue) throws {
    try checkNothingEncoded()
    encoding.storage = .value(try value())
  }

  private func checkNothingEncoded() throws(WebcomError) {
    guard case .empty = encoding.storage else {
      throw encoding.session.misuseError(
        "a single value was encoded where a value was already encoded", at: encoding.path)
    }
  }

  private func place() -> String { ValueEncoderPath.place(encoding.path) }

  mutating func encodeNil() throws { try store(.null) }
  mutating func encode(_ value: Bool) throws { try store(.bool(value)) }
  mutating func encode(_ value: String) throws { try store(.string(value)) }
  mutating func encode(_ value: Int) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { try store(.int(value)) }
  mutating func encode(_ value: Int128) throws { try store(ValueEncoding.number(value)) }
  mutating func encode(_ value: UInt) throws { try store(ValueEncoding.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { try store(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { try store(ValueEncoding.number(value)) }
  mutating func encode(_ value: UInt128) throws { try store(ValueEncoding.number(value)) }
  mutating func encode(_ value: Double) throws {
    try store(try encoding.number(value, place: place))
  }
  mutating func encode(_ value: Float) throws {
    try store(try encoding.number(value, place: place))
  }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try checkNothingEncoded()
    try encoding.encodeSingle(value)
  }
}
