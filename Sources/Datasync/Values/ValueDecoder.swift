import Foundation

/// A `Decoder` that reads `Decodable` values straight from the value model, with the strategies
/// and user info of the application's `JSONDecoder`, and no JSON text in between.
///
/// It decodes as `JSONDecoder` decodes the value's JSON text (``JSONValue/jsonData()``): objects
/// that store arrays (``JSONValue/arrayElements``) read as arrays (gaps as null) and not as keyed
/// containers; integers and floating numbers convert as that text would (`3.0` decodes as the
/// `Int` 3, `2.5` does not); `Date`, `Data`, `URL`, `Decimal` and string-keyed dictionaries are
/// decoded as `JSONDecoder` decodes them, its date, data, key and non-conforming float strategies
/// included (`.custom` closures receive this decoder); errors are the same `DecodingError` cases
/// with the same coding paths and descriptions. Differences, chosen on purpose:
/// - A number that does not fit the requested type (300 as `Int8`, 2.5 as `Int`, 1e39 as
///   `Float`) and a string that is not an ISO 8601 date fail with `dataCorrupted` at the value's
///   coding path, naming the number; `JSONDecoder` reports them at the top level (or at the
///   container) as "not valid JSON".
/// - With the default key strategy, coding keys match stored keys by their UTF-8 bytes, as
///   Datasync compares keys; `JSONDecoder` also matches canonically equivalent strings.
///
/// One instance serves one top-level decode on one thread; nested values reuse it, swapping the
/// current value and path around each `init(from:)`. It holds no state shared with other decodes.
final class ValueDecoder {
  /// The application's decoder, whose strategies and user info apply.
  let configuration: JSONDecoder
  /// The value that `init(from:)` of the type being decoded reads. Only this decode's thread
  /// touches it, and never during another access, so it needs no exclusivity check.
  @exclusivity(unchecked) private(set) var value: JSONValue
  /// The coding path of ``value``; unchecked as ``value``.
  @exclusivity(unchecked) private(set) var path: ValueDecodingPath

  /// The key strategy of the configuration.
  let keyStrategy: JSONDecoder.KeyDecodingStrategy
  /// Whether the key strategy is `.useDefaultKeys`.
  private let usesDefaultKeys: Bool
  private lazy var dateStrategy = configuration.dateDecodingStrategy
  private lazy var dataStrategy = configuration.dataDecodingStrategy
  lazy var floatStrategy = configuration.nonConformingFloatDecodingStrategy
  private lazy var userInfoStorage: [CodingUserInfoKey: Any] = configuration.userInfo

  private init(configuration: JSONDecoder, value: JSONValue, path: ValueDecodingPath) {
    self.configuration = configuration
    self.value = value
    self.path = path
    keyStrategy = configuration.keyDecodingStrategy
    if case .useDefaultKeys = keyStrategy {
      usesDefaultKeys = true
    } else {
      usesDefaultKeys = false
    }
  }

  /// Decodes a value of the value model as `configuration.decode(type, from: value.jsonData())`
  /// would, with the differences listed on ``ValueDecoder``.
  ///
  /// A subclass of `JSONDecoder` (which may override `decode(_:from:)`) and a decoder that
  /// `assumesTopLevelDictionary` decode the JSON text, so that they behave exactly as they did.
  ///
  /// - Throws: `DecodingError`, or the error thrown by an `init(from:)` or a `.custom` strategy.
  static func decode<T: Decodable>(
    _ type: T.Type, from value: JSONValue, configuration: JSONDecoder
  ) throws -> T {
    if Swift.type(of: configuration) != JSONDecoder.self
      || (!configuration.userInfo.isEmpty && configuration.assumesTopLevelDictionary)
    {
      return try configuration.decode(T.self, from: value.jsonData())
    }
    let decoder = ValueDecoder(configuration: configuration, value: value, path: .root)
    return try decoder.unwrap(value, as: T.self, at: .root, isCurrent: true)
  }

  /// A decoder for a value that outlives the current decode (`superDecoder()`).
  func independentDecoder(for value: JSONValue, at path: ValueDecodingPath) -> ValueDecoder {
    ValueDecoder(configuration: configuration, value: value, path: path)
  }

  /// Runs `body` with ``value`` and ``path`` set to those of a nested value, then restores them.
  func withValue<Result>(
    _ nestedValue: JSONValue, at nestedPath: ValueDecodingPath, _ body: () throws -> Result
  ) rethrows -> Result {
    let outerValue = value
    let outerPath = path
    value = nestedValue
    path = nestedPath
    defer {
      value = outerValue
      path = outerPath
    }
    return try body()
  }

  /// Decodes a value of any `Decodable` type: scalars and the types `JSONDecoder` treats
  /// specially are decoded here, others by their `init(from:)` with this decoder.
  ///
  /// - Parameters:
  ///   - value: The value to decode.
  ///   - type: The type to decode.
  ///   - valuePath: The coding path of the value.
  ///   - isCurrent: Whether `value` and `valuePath` are already the current value and path.
  func unwrap<T: Decodable>(
    _ value: JSONValue, as type: T.Type, at valuePath: ValueDecodingPath, isCurrent: Bool = false
  ) throws -> T {
    if T.self == String.self, case .string(let string) = value { return string as! T }
    if T.self == Int.self, let int = integer(value, as: Int.self) { return int as! T }
    if T.self == Double.self, let double = double(value) { return double as! T }
    if T.self == Bool.self, case .bool(let bool) = value { return bool as! T }
    if T.self == Date.self { return try date(value, at: valuePath) as! T }
    if T.self == Data.self { return try data(value, at: valuePath) as! T }
    if T.self == URL.self { return try url(value, at: valuePath) as! T }
    if T.self == Decimal.self { return try decimal(value, at: valuePath) as! T }
    if T.self == [String].self { return try array(value, at: valuePath, of: string) as! T }
    if T.self == [Int].self {
      return try array(value, at: valuePath) { integer($0, as: Int.self) } as! T
    }
    if T.self == [Double].self { return try array(value, at: valuePath, of: double) as! T }
    if !usesDefaultKeys, let dictionaryType = T.self as? any StringKeyedDictionary.Type {
      return try dictionaryType.decoded(from: value, by: self, at: valuePath) as! T
    }
    if isCurrent { return try T(from: self) }
    return try withValue(value, at: valuePath) { try T(from: self) }
  }

  private func date(_ value: JSONValue, at valuePath: ValueDecodingPath) throws -> Date {
    try checkNotNull(value, Date.self, at: valuePath)
    switch dateStrategy {
    case .deferredToDate:
      return try withValue(value, at: valuePath) { try Date(from: self) }
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try scalar(double(value), Double.self, value, valuePath))
    case .millisecondsSince1970:
      let milliseconds = try scalar(double(value), Double.self, value, valuePath)
      return Date(timeIntervalSince1970: milliseconds / 1000)
    case .iso8601:
      let text = try scalar(string(value), String.self, value, valuePath)
      guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: valuePath.keys,
            debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .custom(let decode):
      return try withValue(value, at: valuePath) { try decode(self) }
    @unknown default:
      return try configuration.decode(Date.self, from: value.jsonData())
    }
  }

  private func data(_ value: JSONValue, at valuePath: ValueDecodingPath) throws -> Data {
    try checkNotNull(value, Data.self, at: valuePath)
    switch dataStrategy {
    case .deferredToData:
      return try withValue(value, at: valuePath) { try Data(from: self) }
    case .base64:
      let text = try scalar(string(value), String.self, value, valuePath)
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: valuePath.keys, debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let decode):
      return try withValue(value, at: valuePath) { try decode(self) }
    @unknown default:
      return try configuration.decode(Data.self, from: value.jsonData())
    }
  }

  private func url(_ value: JSONValue, at valuePath: ValueDecodingPath) throws -> URL {
    try checkNotNull(value, URL.self, at: valuePath)
    guard let url = URL(string: try scalar(string(value), String.self, value, valuePath)) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: valuePath.keys, debugDescription: "Invalid URL string."))
    }
    return url
  }

  private func decimal(_ value: JSONValue, at valuePath: ValueDecodingPath) throws -> Decimal {
    try checkNotNull(value, Decimal.self, at: valuePath)
    let text: String
    switch value {
    case .int(let int): text = String(int)
    case .double(let double): text = double.description
    default:
      throw DecodingError.typeMismatch(
        Decimal.self, DecodingError.Context(codingPath: valuePath.keys, debugDescription: ""))
    }
    guard let decimal = Decimal(string: text) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: valuePath.keys,
          debugDescription: ValueDecoder.unrepresentable(text, as: Decimal.self)))
    }
    return decimal
  }

  /// The scalar `result`, or the error for decoding `value` as `type` at `valuePath` when it is
  /// `nil`.
  private func scalar<T>(
    _ result: T?, _ type: T.Type, _ value: JSONValue, _ valuePath: ValueDecodingPath
  ) throws -> T {
    guard let result else { throw failure(decoding: type, from: value, at: valuePath.keys) }
    return result
  }
}

// MARK: - Decoder

extension ValueDecoder: Decoder {
  var codingPath: [any CodingKey] { path.keys }

  var userInfo: [CodingUserInfoKey: Any] { userInfoStorage }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    try keyedContainer(keyedBy: type, for: value, at: path)
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try unkeyedContainer(for: value, at: path)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    self
  }

  /// A keyed container over `value`, an object that does not store an array.
  func keyedContainer<Key: CodingKey>(
    keyedBy type: Key.Type, for value: JSONValue, at path: ValueDecodingPath
  ) throws -> KeyedDecodingContainer<Key> {
    if case .object(let object) = value, value.arrayCount == nil {
      return KeyedDecodingContainer(
        ValueDecoderKeyedContainer<Key>(decoder: self, object: object, path: path))
    }
    if case .null = value {
      throw DecodingError.valueNotFound(
        [String: Any].self,
        DecodingError.Context(
          codingPath: path.keys,
          debugDescription: "Cannot get keyed decoding container -- found null value instead"))
    }
    throw ValueDecoder.typeMismatch([String: Any].self, value, at: path.keys)
  }

  /// An unkeyed container over `value`, an object that stores an array.
  func unkeyedContainer(for value: JSONValue, at path: ValueDecodingPath) throws
    -> ValueDecoderUnkeyedContainer
  {
    guard let elements = value.arrayElements else {
      throw unkeyedContainerFailure(for: value, at: path)
    }
    return ValueDecoderUnkeyedContainer(decoder: self, elements: elements, path: path)
  }

  /// The error for an unkeyed container over `value`, which does not store an array.
  func unkeyedContainerFailure(for value: JSONValue, at path: ValueDecodingPath)
    -> DecodingError
  {
    if case .null = value {
      return DecodingError.valueNotFound(
        [Any].self,
        DecodingError.Context(
          codingPath: path.keys,
          debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
    }
    return ValueDecoder.typeMismatch([Any].self, value, at: path.keys)
  }
}

// MARK: - Errors

extension ValueDecoder {
  /// The error for a scalar of `type` that `value` does not give: `valueNotFound` for null
  /// (`typeMismatch` for `Bool`, as `JSONDecoder`), `dataCorrupted` for a number that `type`
  /// cannot represent, `typeMismatch` otherwise.
  func failure(decoding type: Any.Type, from value: JSONValue, at codingPath: [any CodingKey])
    -> DecodingError
  {
    switch value {
    case .null where type != Bool.self:
      return DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: "Cannot get value of type \(type) -- found null value instead"))
    case .int(let int) where type is any Numeric.Type:
      return DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: ValueDecoder.unrepresentable(String(int), as: type)))
    case .double(let double) where type is any Numeric.Type:
      return DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: codingPath,
          debugDescription: ValueDecoder.unrepresentable(double.description, as: type)))
    default:
      return ValueDecoder.typeMismatch(type, value, at: codingPath)
    }
  }

  /// Throws `valueNotFound` when `value` is null.
  func checkNotNull(_ value: JSONValue, _ type: Any.Type, at valuePath: ValueDecodingPath) throws {
    guard case .null = value else { return }
    throw failure(decoding: type, from: value, at: valuePath.keys)
  }

  /// A `typeMismatch` error worded as `JSONDecoder` words it.
  static func typeMismatch(_ type: Any.Type, _ value: JSONValue, at codingPath: [any CodingKey])
    -> DecodingError
  {
    DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: codingPath,
        debugDescription: "Expected to decode \(type) but found \(kind(of: value)) instead."))
  }

  /// The description of the error for a number that `type` cannot represent.
  static func unrepresentable(_ number: String, as type: Any.Type) -> String {
    "The number \(number) is not representable as \(type)."
  }

  /// The kind of a value, as `JSONDecoder` names the kinds of JSON values in its errors.
  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "bool"
    case .int, .double: "number"
    case .string: "a string"
    case .object: value.arrayCount == nil ? "a dictionary" : "an array"
    }
  }
}

// MARK: - String-keyed dictionaries

/// Dictionaries keyed by `String`: under a key strategy, `JSONDecoder` keeps their keys as
/// stored (the strategy converts the keys of other types only).
private protocol StringKeyedDictionary {
  /// Decodes the dictionary from `value`, at `valuePath`.
  static func decoded(
    from value: JSONValue, by decoder: ValueDecoder, at valuePath: ValueDecodingPath
  )
    throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
  fileprivate static func decoded(
    from value: JSONValue, by decoder: ValueDecoder, at valuePath: ValueDecodingPath
  ) throws -> Self {
    guard case .object(let object) = value, value.arrayCount == nil else {
      if case .null = value {
        throw DecodingError.valueNotFound(
          [String: Any].self,
          DecodingError.Context(
            codingPath: valuePath.keys,
            debugDescription:
              "Cannot get value of type \([String: Any].self) -- found null value instead"))
      }
      throw ValueDecoder.typeMismatch([String: Any].self, value, at: valuePath.keys)
    }
    let path = valuePath.sharingPrefix()
    var dictionary = Self(minimumCapacity: object.count)
    for (childKey, child) in object where dictionary[childKey.value] == nil {
      dictionary[childKey.value] = try decoder.unwrap(
        child, as: Value.self, at: path.appending(ValueDecodingKey.string(childKey.value)))
    }
    return dictionary
  }
}
