/// The keyed container of ``ValueEncoder``: names keys with the key strategy, then writes
/// through a ``ValueEncoderObjectWriter``.
struct ValueEncoderKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let writer: ValueEncoderObjectWriter

  var codingPath: [any CodingKey] { writer.path?.codingPath ?? [] }

  /// The stored name of a key, after the key strategy.
  private func name(for key: some CodingKey) -> String {
    switch writer.encoding.session.options.keys {
    case .useDefaultKeys: key.stringValue
    case .convertToSnakeCase: ValueEncoderKeyConversion.snakeCase(key.stringValue)
    case .custom(let convert): convert(codingPath + [key]).stringValue
    }
  }

  private func store(_ value: JSONValue, forKey key: Key) throws {
    try writer.store(value, name: name(for: key))
  }

  mutating func encodeNil(forKey key: Key) throws { try store(.null, forKey: key) }
  mutating func encode(_ value: Bool, forKey key: Key) throws {
    try store(.bool(value), forKey: key)
  }
  mutating func encode(_ value: String, forKey key: Key) throws {
    try store(.string(value), forKey: key)
  }
  mutating func encode(_ value: Int, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int8, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int16, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int32, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: Int64, forKey key: Key) throws {
    try store(.int(value), forKey: key)
  }
  mutating func encode(_ value: Int128, forKey key: Key) throws {
    try store(ValueEncoding.number(value), forKey: key)
  }
  mutating func encode(_ value: UInt, forKey key: Key) throws {
    try store(ValueEncoding.number(UInt64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt8, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt16, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt32, forKey key: Key) throws {
    try store(.int(Int64(value)), forKey: key)
  }
  mutating func encode(_ value: UInt64, forKey key: Key) throws {
    try store(ValueEncoding.number(value), forKey: key)
  }
  mutating func encode(_ value: UInt128, forKey key: Key) throws {
    try store(ValueEncoding.number(value), forKey: key)
  }

  mutating func encode(_ value: Double, forKey key: Key) throws {
    let name = name(for: key)
    let number = try writer.encoding.number(value) { ValueEncoderPath.place(writer.path, name) }
    try writer.store(number, name: name)
  }

  mutating func encode(_ value: Float, forKey key: Key) throws {
    let name = name(for: key)
    let number = try writer.encoding.number(value) { ValueEncoderPath.place(writer.path, name) }
    try writer.store(number, name: name)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try writer.encode(value, name: name(for: key), key: key)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      ValueEncoderKeyedContainer<NestedKey>(
        writer: writer.nestedObject(name: name(for: key), key: key)))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    ValueEncoderUnkeyedContainer(writer: writer.nestedArray(name: name(for: key), key: key))
  }

  mutating func superEncoder() -> any Encoder {
    writer.superEncoder(
      name: name(for: ValueEncoderNameKey.superKey), key: ValueEncoderNameKey.superKey)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    writer.superEncoder(name: name(for: key), key: key)
  }
}
