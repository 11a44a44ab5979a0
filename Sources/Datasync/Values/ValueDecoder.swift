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
  /// The value that `init(from:)` of the type being decoded reads.
  private(set) var value: JSONValue
  /// The coding path of ``value``.
  private(set) var path: ValueDecodingPath

  /// The key strategy, read from the configuration on first use.
  private(set) lazy var keyStrategy = configuration.keyDecodingStrategy
  /// Whether the key strategy is `.useDefaultKeys`.
  private(set) lazy var usesDefaultKeys: Bool = {
    if case .useDefaultKeys = keyStrategy { return true }
    return false
  }()
  private lazy var dateStrategy = configuration.dateDecodingStrategy
  private lazy var dataStrategy = configuration.dataDecodingStrategy
  private lazy var floatStrategy = configuration.nonConformingFloatDecodingStrategy
  private lazy var userInfoStorage: [CodingUserInfoKey: Any] = configuration.userInfo

  private init(configuration: JSONDecoder, value: JSONValue, path: ValueDecodingPath) {
    self.configuration = configuration
    self.value = value
    self.path = path
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
    return try decoder.unwrap(value, as: T.self, in: .root, key: ValueDecodingKey?.none)
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

  /// Decodes a value of any `Decodable` type: the types `JSONDecoder` treats specially are
  /// decoded here, others by their `init(from:)` with this decoder.
  ///
  /// - Parameters:
  ///   - value: The value to decode.
  ///   - type: The type to decode.
  ///   - containerPath: The path of the container holding the value.
  ///   - key: The value's key in that container, `nil` for the container's own value.
  func unwrap<T: Decodable, Key: CodingKey>(
    _ value: JSONValue, as type: T.Type, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> T {
    if T.self == Date.self {
      return try date(value, in: containerPath, key: key) as! T
    }
    if T.self == Data.self {
      return try data(value, in: containerPath, key: key) as! T
    }
    if T.self == URL.self {
      return try url(value, in: containerPath, key: key) as! T
    }
    if T.self == Decimal.self {
      return try decimal(value, in: containerPath, key: key) as! T
    }
    if !usesDefaultKeys, let dictionaryType = T.self as? any StringKeyedDictionary.Type {
      return try dictionaryType.decoded(from: value, by: self, in: containerPath, key: key) as! T
    }
    return try withValue(value, at: containerPath.appending(key)) { try T(from: self) }
  }

  private func date<Key: CodingKey>(
    _ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> Date {
    try checkNotNull(value, Date.self, in: containerPath, key: key)
    switch dateStrategy {
    case .deferredToDate:
      return try withValue(value, at: containerPath.appending(key)) { try Date(from: self) }
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try double(value, in: containerPath, key: key))
    case .millisecondsSince1970:
      return Date(timeIntervalSince1970: try double(value, in: containerPath, key: key) / 1000)
    case .iso8601:
      let text = try string(value, in: containerPath, key: key)
      guard let date = try? Date.ISO8601FormatStyle().parse(text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: containerPath.keys(appending: key),
            debugDescription: "Expected date string to be ISO8601-formatted."))
      }
      return date
    case .custom(let decode):
      return try withValue(value, at: containerPath.appending(key)) { try decode(self) }
    @unknown default:
      return try configuration.decode(Date.self, from: value.jsonData())
    }
  }

  private func data<Key: CodingKey>(
    _ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> Data {
    try checkNotNull(value, Data.self, in: containerPath, key: key)
    switch dataStrategy {
    case .deferredToData:
      return try withValue(value, at: containerPath.appending(key)) { try Data(from: self) }
    case .base64:
      guard case .string(let text) = value else {
        throw typeMismatch(String.self, value, at: containerPath.keys(appending: key))
      }
      guard let data = Data(base64Encoded: text) else {
        throw DecodingError.dataCorrupted(
          DecodingError.Context(
            codingPath: containerPath.keys(appending: key),
            debugDescription: "Encountered Data is not valid Base64."))
      }
      return data
    case .custom(let decode):
      return try withValue(value, at: containerPath.appending(key)) { try decode(self) }
    @unknown default:
      return try configuration.decode(Data.self, from: value.jsonData())
    }
  }

  private func url<Key: CodingKey>(
    _ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> URL {
    try checkNotNull(value, URL.self, in: containerPath, key: key)
    guard let url = URL(string: try string(value, in: containerPath, key: key)) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: containerPath.keys(appending: key), debugDescription: "Invalid URL string."))
    }
    return url
  }

  private func decimal<Key: CodingKey>(
    _ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> Decimal {
    try checkNotNull(value, Decimal.self, in: containerPath, key: key)
    let text: String
    switch value {
    case .int(let int): text = String(int)
    case .double(let double): text = double.description
    default:
      throw DecodingError.typeMismatch(
        Decimal.self,
        DecodingError.Context(codingPath: containerPath.keys(appending: key), debugDescription: ""))
    }
    guard let decimal = Decimal(string: text) else {
      throw unrepresentable(text, as: Decimal.self, at: containerPath.keys(appending: key))
    }
    return decimal
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
    if case .object(let object) = value, value.arrayElements == nil {
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
    throw typeMismatch([String: Any].self, value, at: path.keys)
  }

  /// An unkeyed container over `value`, an object that stores an array.
  func unkeyedContainer(for value: JSONValue, at path: ValueDecodingPath) throws
    -> any UnkeyedDecodingContainer
  {
    if let elements = value.arrayElements {
      return ValueDecoderUnkeyedContainer(decoder: self, elements: elements, path: path)
    }
    if case .null = value {
      throw DecodingError.valueNotFound(
        [Any].self,
        DecodingError.Context(
          codingPath: path.keys,
          debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
    }
    throw typeMismatch([Any].self, value, at: path.keys)
  }
}

// MARK: - Scalars

extension ValueDecoder {
  /// A Boolean; anything else (null included) is a type mismatch.
  func bool<Key: CodingKey>(_ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?)
    throws -> Bool
  {
    guard case .bool(let bool) = value else {
      throw typeMismatch(Bool.self, value, at: containerPath.keys(appending: key))
    }
    return bool
  }

  /// A string.
  func string<Key: CodingKey>(_ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?)
    throws -> String
  {
    if case .string(let string) = value { return string }
    try checkNotNull(value, String.self, in: containerPath, key: key)
    throw typeMismatch(String.self, value, at: containerPath.keys(appending: key))
  }

  /// An integer of type `T` from an integer that fits, or from an integral floating number that
  /// fits (as `JSONDecoder` reads its shortest text: beyond 2^53, the digits of that text).
  func integer<T: FixedWidthInteger, Key: CodingKey>(
    _ value: JSONValue, as type: T.Type, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> T {
    switch value {
    case .int(let int):
      if let integer = T(exactly: int) { return integer }
      throw unrepresentable(String(int), as: T.self, at: containerPath.keys(appending: key))
    case .double(let double):
      if let integer = T(exactly: double) {
        if double.magnitude < 0x1p53 { return integer }
        if let integer = ValueDecoder.integer(fromShortestTextOf: double, as: T.self) {
          return integer
        }
      }
      throw unrepresentable(double.description, as: T.self, at: containerPath.keys(appending: key))
    default:
      try checkNotNull(value, T.self, in: containerPath, key: key)
      throw typeMismatch(T.self, value, at: containerPath.keys(appending: key))
    }
  }

  /// A `Double` from a number, or from a string named by the non-conforming float strategy.
  func double<Key: CodingKey>(_ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?)
    throws -> Double
  {
    switch value {
    case .double(let double): return double
    case .int(let int): return Double(int)
    default: return try nonConformingFloat(value, as: Double.self, in: containerPath, key: key)
    }
  }

  /// A `Float` from a number (rounded as the number's JSON text would be), or from a string named
  /// by the non-conforming float strategy. Numbers beyond the range of `Float`, or that round to
  /// zero though they are not zero, cannot be represented.
  func float<Key: CodingKey>(_ value: JSONValue, in containerPath: ValueDecodingPath, key: Key?)
    throws -> Float
  {
    switch value {
    case .int(let int):
      return Float(int)
    case .double(let double):
      let float =
        ValueDecoder.isHalfwayBetweenFloats(double)
        ? Float(double.description) ?? Float(double) : Float(double)
      guard float.isFinite, float != 0 || double == 0 else {
        throw unrepresentable(
          double.description, as: Float.self, at: containerPath.keys(appending: key))
      }
      return float
    default:
      return try nonConformingFloat(value, as: Float.self, in: containerPath, key: key)
    }
  }

  private func nonConformingFloat<T: FloatingPoint, Key: CodingKey>(
    _ value: JSONValue, as type: T.Type, in containerPath: ValueDecodingPath, key: Key?
  ) throws -> T {
    try checkNotNull(value, T.self, in: containerPath, key: key)
    if case .string(let text) = value,
      case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = floatStrategy,
      ValueDecoder.isWrittenWithoutEscapes(text)
    {
      let bytes = text.utf8
      if bytes.elementsEqual(positiveInfinity.utf8) { return T.infinity }
      if bytes.elementsEqual(negativeInfinity.utf8) { return -T.infinity }
      if bytes.elementsEqual(nan.utf8) { return T.nan }
    }
    throw typeMismatch(T.self, value, at: containerPath.keys(appending: key))
  }

  /// Whether the JSON text of a string has no escape sequence (no `"`, `\\` or control
  /// character): `JSONDecoder` compares only such strings with the non-conforming float names.
  private static func isWrittenWithoutEscapes(_ text: String) -> Bool {
    !text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
  }

  /// Whether a `Double` lies exactly halfway between two adjacent `Float`s (or between the
  /// largest `Float` and 2^128, or between 0 and the smallest subnormal): there, converting the
  /// `Double` rounds to even, while reading its shortest text rounds towards the side the text
  /// falls on.
  static func isHalfwayBetweenFloats(_ double: Double) -> Bool {
    guard double.isFinite, double != 0 else { return false }
    let exponent = max(Int(double.exponent), Int(Float.leastNormalMagnitude.exponent))
    let halfUnits =
      double.magnitude
      * Double(sign: .plus, exponent: Float.significandBitCount + 1 - exponent, significand: 1)
    return halfUnits.rounded(.towardZero) == halfUnits
      && halfUnits.truncatingRemainder(dividingBy: 2) == 1
  }

  /// The integer written by the shortest text of an integral `Double` (`2^60` is written
  /// `1.152921504606847e+18`, which reads as 1152921504606847000), if it fits in `T`.
  static func integer<T: FixedWidthInteger>(fromShortestTextOf double: Double, as type: T.Type)
    -> T?
  {
    var magnitude: UInt64 = 0
    var isNegative = false
    var fractionDigits = 0
    var isInFraction = false
    var exponent = 0
    var isExponentNegative = false
    var isInExponent = false
    for byte in double.description.utf8 {
      switch byte {
      case UInt8(ascii: "-"):
        if isInExponent { isExponentNegative = true } else { isNegative = true }
      case UInt8(ascii: "+"):
        continue
      case UInt8(ascii: "."):
        isInFraction = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        isInExponent = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = UInt64(byte - UInt8(ascii: "0"))
        if isInExponent {
          exponent = exponent * 10 + Int(digit)
        } else {
          let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
          let (sum, carry) = times10.addingReportingOverflow(digit)
          guard !overflow, !carry else { return nil }
          magnitude = sum
          if isInFraction { fractionDigits += 1 }
        }
      default:
        return nil
      }
    }
    var scale = (isExponentNegative ? -exponent : exponent) - fractionDigits
    while scale < 0 {
      magnitude /= 10
      scale += 1
    }
    while scale > 0 {
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      magnitude = times10
      scale -= 1
    }
    guard let integer = T(exactly: magnitude) else { return nil }
    if isNegative { return T.isSigned ? 0 - integer : nil }
    return integer
  }
}

// MARK: - Errors

extension ValueDecoder {
  /// Throws `valueNotFound` when `value` is null.
  func checkNotNull<Key: CodingKey>(
    _ value: JSONValue, _ type: Any.Type, in containerPath: ValueDecodingPath, key: Key?
  ) throws {
    guard case .null = value else { return }
    throw DecodingError.valueNotFound(
      type,
      DecodingError.Context(
        codingPath: containerPath.keys(appending: key),
        debugDescription: "Cannot get value of type \(type) -- found null value instead"))
  }

  /// A `typeMismatch` error worded as `JSONDecoder` words it.
  func typeMismatch(_ type: Any.Type, _ value: JSONValue, at codingPath: [any CodingKey])
    -> DecodingError
  {
    DecodingError.typeMismatch(
      type,
      DecodingError.Context(
        codingPath: codingPath,
        debugDescription:
          "Expected to decode \(type) but found \(ValueDecoder.kind(of: value)) instead."))
  }

  /// A `dataCorrupted` error for a number that `type` cannot represent.
  func unrepresentable(_ number: String, as type: Any.Type, at codingPath: [any CodingKey])
    -> DecodingError
  {
    DecodingError.dataCorrupted(
      DecodingError.Context(
        codingPath: codingPath,
        debugDescription: "The number \(number) is not representable as \(type)."))
  }

  /// The kind of a value, as `JSONDecoder` names the kinds of JSON values in its errors.
  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "bool"
    case .int, .double: "number"
    case .string: "a string"
    case .object: value.arrayElements == nil ? "a dictionary" : "an array"
    }
  }
}

// MARK: - String-keyed dictionaries

/// Dictionaries keyed by `String`: under a key strategy, `JSONDecoder` keeps their keys as
/// stored (the strategy converts the keys of other types only).
private protocol StringKeyedDictionary {
  /// Decodes the dictionary from `value`, the value at `key` in the container at `containerPath`.
  static func decoded<Key: CodingKey>(
    from value: JSONValue, by decoder: ValueDecoder, in containerPath: ValueDecodingPath,
    key: Key?
  ) throws -> Self
}

extension Dictionary: StringKeyedDictionary where Key == String, Value: Decodable {
  fileprivate static func decoded<CodingKeyType: CodingKey>(
    from value: JSONValue, by decoder: ValueDecoder, in containerPath: ValueDecodingPath,
    key: CodingKeyType?
  ) throws -> Self {
    try decoder.checkNotNull(value, [String: Any].self, in: containerPath, key: key)
    guard case .object(let object) = value, value.arrayElements == nil else {
      throw decoder.typeMismatch([String: Any].self, value, at: containerPath.keys(appending: key))
    }
    let path = containerPath.appending(key).sharingPrefix()
    var dictionary = Self(minimumCapacity: object.count)
    for (childKey, child) in object where dictionary[childKey.value] == nil {
      dictionary[childKey.value] = try decoder.unwrap(
        child, as: Value.self, in: path, key: ValueDecodingKey.string(childKey.value))
    }
    return dictionary
  }
}
