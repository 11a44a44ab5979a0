/// The unkeyed container of ``ValueEncoder``: writes elements through a
/// ``ValueEncoderArrayWriter``.
struct ValueEncoderUnkeyedContainer: UnkeyedEncodingContainer {
  let writer: ValueEncoderArrayWriter

  var codingPath: [any CodingKey] { writer.path?.codingPath ?? [] }

  var count: Int { writer.count }

  mutating func encodeNil() throws { try writer.store(.null) }
  mutating func encode(_ value: Bool) throws { try writer.store(.bool(value)) }
  mutating func encode(_ value: String) throws { try writer.store(.string(value)) }
  mutating func encode(_ value: Int) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: Int8) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: Int16) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: Int32) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: Int64) throws { try writer.store(.int(value)) }
  mutating func encode(_ value: Int128) throws { try writer.store(ValueEncoding.number(value)) }
  mutating func encode(_ value: UInt) throws {
    try writer.store(ValueEncoding.number(UInt64(value)))
  }
  mutating func encode(_ value: UInt8) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: UInt16) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: UInt32) throws { try writer.store(.int(Int64(value))) }
  mutating func encode(_ value: UInt64) throws { try writer.store(ValueEncoding.number(value)) }
  mutating func encode(_ value: UInt128) throws { try writer.store(ValueEncoding.number(value)) }

  mutating func encode(_ value: Double) throws {
    try writer.store(try writer.encoding.number(value, place: writer.nextPlace))
  }

  mutating func encode(_ value: Float) throws {
    try writer.store(try writer.encoding.number(value, place: writer.nextPlace))
  }

  mutating func encode<T: Encodable>(_ value: T) throws { try writer.encode(value) }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
    -> KeyedEncodingContainer<NestedKey>
  {
    KeyedEncodingContainer(ValueEncoderKeyedContainer<NestedKey>(writer: writer.nestedObject()))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    ValueEncoderUnkeyedContainer(writer: writer.nestedArray())
  }

  mutating func superEncoder() -> any Encoder { writer.superEncoder() }
}
