import Foundation

/// The keyed container of ``ValueDecoder`` over an object of the value model.
///
/// With the default key strategy, a coding key is looked up in the object's tree by its string
/// (no copy of the object). Under another strategy, the object's keys are converted once, when
/// the container is made, into a dictionary from converted key to value; when two keys convert
/// to the same key, the first in key order wins (as in `JSONDecoder`, which reads them in the
/// order of the JSON text).
///
/// A class, so that `KeyedDecodingContainer`, which copies its container for every call, copies
/// one reference.
final class ValueDecoderKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
  private let decoder: ValueDecoder
  private let path: ValueDecodingPath
  /// The object, where coding keys are looked up under the default key strategy.
  private let object: JSONObject
  /// The root of the object's tree, held by ``object``: lookups start there without retaining
  /// it.
  private let root: Unmanaged<JSONObjectNode>?
  /// Under another key strategy, the values by converted key, and the converted keys in key
  /// order of the stored keys.
  private let converted: (values: [String: JSONValue], orderedKeys: [String])?

  init(decoder: ValueDecoder, object: JSONObject, path: ValueDecodingPath) {
    self.decoder = decoder
    self.path = path
    self.object = object
    root = object.root.map(Unmanaged.passUnretained)
    converted = ValueDecoderKeyedContainer.converted(
      object, keyStrategy: decoder.keyStrategy, at: path)
  }

  /// The values of `object` by converted key under `keyStrategy`, `nil` for the default keys.
  private static func converted(
    _ object: JSONObject, keyStrategy: JSONDecoder.KeyDecodingStrategy, at path: ValueDecodingPath
  ) -> (values: [String: JSONValue], orderedKeys: [String])? {
    switch keyStrategy {
    case .useDefaultKeys:
      return nil
    case .convertFromSnakeCase:
      return converted(object) { convertedFromSnakeCase($0.value) }
    case .custom(let convert):
      let containerKeys = path.keys
      return converted(object) {
        convert(containerKeys + [ValueDecodingKey.string($0.value)]).stringValue
      }
    @unknown default:
      return nil
    }
  }

  private static func converted(_ object: JSONObject, by convert: (WebcomKey) -> String)
    -> (values: [String: JSONValue], orderedKeys: [String])
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
    return (values, orderedKeys)
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
    if let converted { return converted.orderedKeys.compactMap { Key(stringValue: $0) } }
    return object.compactMap { Key(stringValue: $0.key.value) }
  }

  func contains(_ key: Key) -> Bool {
    valueIfPresent(forKey: key) != nil
  }

  private func valueIfPresent(forKey key: some CodingKey) -> JSONValue? {
    if let converted { return converted.values[key.stringValue] }
    guard let root else { return nil }
    return PersistentOrderedMap<JSONObjectNode>.value(for: WebcomKey(key.stringValue), under: root)
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

  /// The error for decoding `value`, the value of `key`, as the scalar `type`.
  private func failure(decoding type: Any.Type, from value: JSONValue, forKey key: Key) -> any Error
  {
    decoder.failure(decoding: type, from: value, at: path.keys(appending: key))
  }

  func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
    let value = try value(forKey: key)
    if let result = decoder.bool(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: String.Type, forKey key: Key) throws -> String {
    let value = try value(forKey: key)
    if let result = decoder.string(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
    let value = try value(forKey: key)
    if let result = decoder.double(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
    let value = try value(forKey: key)
    if let result = decoder.float(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
    let value = try value(forKey: key)
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    try decoder.unwrap(value(forKey: key), as: type, at: path.appending(key))
  }

  func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.bool(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.string(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.double(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.float(value) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    if let result = decoder.integer(value, as: type) { return result }
    throw failure(decoding: type, from: value, forKey: key)
  }

  func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    guard let value = nonNullValue(forKey: key) else { return nil }
    return try decoder.unwrap(value, as: type, at: path.appending(key))
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
