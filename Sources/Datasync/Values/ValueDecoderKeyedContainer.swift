/// The keyed container of ``ValueDecoder`` over an object of the value model.
///
/// With the default key strategy, a coding key is looked up in the object's tree by its string
/// (no copy of the object). Under another strategy, the object's keys are converted once, when
/// the container is made, into a dictionary from converted key to value; when two keys convert
/// to the same key, the first in key order wins (as in `JSONDecoder`, which reads them in the
/// order of the JSON text).
struct ValueDecoderKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  /// How coding keys find values.
  private enum Lookup {
    /// By the stored keys.
    case stored(JSONObject)
    /// By the converted keys, which are listed in key order of the stored keys.
    case converted([String: JSONValue], orderedKeys: [String])
  }

  private let decoder: ValueDecoder
  private let lookup: Lookup
  private let path: ValueDecodingPath

  init(decoder: ValueDecoder, object: JSONObject, path: ValueDecodingPath) {
    self.decoder = decoder
    self.path = path
    switch decoder.keyStrategy {
    case .useDefaultKeys:
      lookup = .stored(object)
    case .convertFromSnakeCase:
      lookup = ValueDecoderKeyedContainer.converted(object) {
        ValueDecoderKeyedContainer.convertedFromSnakeCase($0.value)
      }
    case .custom(let convert):
      let containerKeys = path.keys
      lookup = ValueDecoderKeyedContainer.converted(object) {
        convert(containerKeys + [ValueDecodingKey.string($0.value)]).stringValue
      }
    @unknown default:
      lookup = .stored(object)
    }
  }

  private static func converted(_ object: JSONObject, by convert: (WebcomKey) -> String)
    -> Lookup
  {
    var values: [String: JSONValue] = [:]
    values.reserveCapacity(object.count)
    var orderedKeys: [String] = []
    orderedKeys.reserveCapacity(object.count)
    for (key, value) in object {
      let converted = convert(key)
      if values[converted] == nil {
        values[converted] = value
        orderedKeys.append(converted)
      }
    }
    return .converted(values, orderedKeys: orderedKeys)
  }

  /// A snake-case key converted to camel case as `JSONDecoder.KeyDecodingStrategy`
  /// `.convertFromSnakeCase` documents it: the words between underscores are joined, the first
  /// lowercased and the others capitalized; leading and trailing underscores are kept; a key
  /// with a single word is kept as it is.
  static func convertedFromSnakeCase(_ key: String) -> String {
    guard key.utf8.contains(UInt8(ascii: "_")),
      let firstLetter = key.firstIndex(where: { $0 != "_" }),
      let lastLetter = key.lastIndex(where: { $0 != "_" })
    else { return key }
    let words = key[firstLetter...lastLetter].split(separator: "_")
    guard words.count > 1 else { return key }
    var converted = String(key[..<firstLetter]) + words[0].lowercased()
    for word in words.dropFirst() {
      converted += word.capitalized
    }
    return converted + key[key.index(after: lastLetter)...]
  }

  var codingPath: [any CodingKey] { path.keys }

  /// The keys of the object that `Key` can represent, in key order of the stored keys.
  var allKeys: [Key] {
    switch lookup {
    case .stored(let object): object.compactMap { Key(stringValue: $0.key.value) }
    case .converted(_, let orderedKeys): orderedKeys.compactMap { Key(stringValue: $0) }
    }
  }

  func contains(_ key: Key) -> Bool {
    valueIfPresent(forKey: key) != nil
  }

  private func valueIfPresent(forKey key: some CodingKey) -> JSONValue? {
    switch lookup {
    case .stored(let object): object[WebcomKey(key.stringValue)]
    case .converted(let values, _): values[key.stringValue]
    }
  }

  private func value(forKey key: some CodingKey) throws -> JSONValue {
    guard let value = valueIfPresent(forKey: key) else {
      throw DecodingError.keyNotFound(
        key,
        DecodingError.Context(
          codingPath: path.keys,
          debugDescription: "No value associated with key \(key) (\"\(key.stringValue)\")."))
    }
    return value
  }

  /// The value of a key, `nil` when the key is absent or its value null.
  private func nonNullValue(forKey key: Key) -> JSONValue? {
    guard let value = valueIfPresent(forKey: key) else { return nil }
    if case .null = value { return nil }
    return value
  }

  func decodeNil(forKey key: Key) throws -> Bool {
    if case .null = try value(forKey: key) { return true }
    return false
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    try decoder.bool(value(forKey: key), in: path, key: key)
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    try decoder.string(value(forKey: key), in: path, key: key)
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    try decoder.double(value(forKey: key), in: path, key: key)
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    try decoder.float(value(forKey: key), in: path, key: key)
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    try decoder.integer(value(forKey: key), as: type, in: path, key: key)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.unwrap(value(forKey: key), as: type, in: path, key: key)
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    try nonNullValue(forKey: key).map { try decoder.bool($0, in: path, key: key) }
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    try nonNullValue(forKey: key).map { try decoder.string($0, in: path, key: key) }
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    try nonNullValue(forKey: key).map { try decoder.double($0, in: path, key: key) }
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    try nonNullValue(forKey: key).map { try decoder.float($0, in: path, key: key) }
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    try integerIfPresent(type, forKey: key)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    try nonNullValue(forKey: key).map { try decoder.unwrap($0, as: type, in: path, key: key) }
  }

  private func integerIfPresent<T: FixedWidthInteger>(_ type: T.Type, forKey key: Key) throws
    -> T?
  {
    try nonNullValue(forKey: key).map { try decoder.integer($0, as: type, in: path, key: key) }
  }

  func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
    throws -> KeyedDecodingContainer<NestedKey>
  {
    try decoder.keyedContainer(keyedBy: type, for: value(forKey: key), at: path.appending(key))
  }

  func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    try decoder.unkeyedContainer(for: value(forKey: key), at: path.appending(key))
  }

  /// A decoder for the value of the key `"super"` (null when absent).
  func superDecoder() throws -> any Decoder {
    decoder.independentDecoder(
      for: valueIfPresent(forKey: ValueDecodingKey.super) ?? .null,
      at: path.appending(ValueDecodingKey.super))
  }

  /// A decoder for the value of `key` (null when absent).
  func superDecoder(forKey key: Key) throws -> any Decoder {
    decoder.independentDecoder(
      for: valueIfPresent(forKey: key) ?? .null, at: path.appending(key))
  }
}
