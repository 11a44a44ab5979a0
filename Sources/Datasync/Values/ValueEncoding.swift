import Foundation

/// One value being encoded by ``ValueEncoder``: the `Encoder` handed to its `encode(to:)`.
final class ValueEncoding: Encoder {
  let session: ValueEncodingSession
  /// The key path of the value from the top; nil for the top-level value.
  let path: ValueEncoderPath?
  /// The number of keys from the top down to the value.
  let depth: Int
  /// The number of `encode(to:)` calls this one is nested in.
  let nesting: Int
  /// Whether this is the top level of a merge: its members keep their keys as written.
  let keepsMembers: Bool
  /// What has been encoded. No access overlaps another (none calls out) and an encoding runs on
  /// one thread, so it opts out of dynamic exclusivity checks.
  @exclusivity(unchecked) var storage = ValueEncoderStorage.empty

  init(
    session: ValueEncodingSession, path: ValueEncoderPath?, nesting: Int = 0,
    keepsMembers: Bool
  ) {
    self.session = session
    self.path = path
    self.depth = path?.depth ?? 0
    self.nesting = nesting
    self.keepsMembers = keepsMembers
  }

  var codingPath: [any CodingKey] { path?.codingPath ?? [] }

  var userInfo: [CodingUserInfoKey: Any] { session.options.userInfo }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(ValueEncoderKeyedContainer<Key>(writer: objectWriter()))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    ValueEncoderUnkeyedContainer(writer: arrayWriter())
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    ValueEncoderSingleValueContainer(encoding: self)
  }

  /// The writer of this value's keyed container (the same object on every request).
  func objectWriter() -> ValueEncoderObjectWriter {
    let object: EncodedObject
    switch storage {
    case .object(let existing):
      object = existing
    case .empty:
      object = EncodedObject(path: path, validatesKeys: !keepsMembers)
      storage = .object(object)
    case .value, .array:
      session.record(
        session.misuseError(
          "a keyed container was requested after \(storageDescription) was encoded", at: path))
      object = EncodedObject(path: path, validatesKeys: true)
    }
    return ValueEncoderObjectWriter(encoding: self, object: object, path: path, depth: depth)
  }

  private func arrayWriter() -> ValueEncoderArrayWriter {
    let array: EncodedArray
    switch storage {
    case .array(let existing):
      array = existing
    case .empty:
      array = EncodedArray()
      storage = .array(array)
    case .value, .object:
      session.record(
        session.misuseError(
          "an unkeyed container was requested after \(storageDescription) was encoded",
          at: path))
      array = EncodedArray()
    }
    return ValueEncoderArrayWriter(encoding: self, array: array, path: path, depth: depth)
  }

  private var storageDescription: String {
    switch storage {
    case .empty: "nothing"
    case .value: "a single value"
    case .object: "a keyed container"
    case .array: "an unkeyed container"
    }
  }

  // MARK: Values

  /// The finished top-level value.
  ///
  /// - Throws: `invalidKey` for a misplaced `.sv` key.
  func finishedValue() throws(WebcomError) -> JSONValue {
    try storage.finished()
  }

  /// The finished top-level members of an object or an array (see
  /// ``ValueEncoder/encodeMembers(_:)``), nil for other values.
  func finishedMembers() throws(WebcomError) -> [JSONObject.Element]? {
    switch storage {
    case .object(let object): try object.finishedMembers()
    case .array(let array): try array.finishedMembers()
    case .empty, .value: nil
    }
  }

  /// Encodes the top-level value into this encoder.
  func encodeTopLevel<T: Encodable>(_ value: T) throws {
    if let direct = try directValue(of: value, place: { ValueEncoderPath.place(nil) }) {
      storage = .value(direct)
    } else {
      try encodeGeneral(value)
      if case .empty = storage {
        throw WebcomError(
          .encodingFailed, "encoding a value of type \(T.self) failed: it encoded nothing")
      }
    }
  }

  /// Encodes a nested value at `name` below `parent` and returns what it encoded, unfinished
  /// (its containers may still be written through `super` encoders). The name and the key are
  /// made only for values whose own `encode(to:)` runs.
  func encodeChild<T: Encodable>(
    _ value: T, below parent: ValueEncoderPath?, name: @autoclosure () -> String,
    key: @autoclosure () -> any CodingKey
  ) throws -> ValueEncoderStorage {
    if let direct = try directValue(of: value, place: { ValueEncoderPath.place(parent, name()) }) {
      return .value(direct)
    }
    if let elements = try directElements(
      of: value, depth: (parent?.depth ?? 0) + 1,
      {
        ValueEncoderPath.place(ValueEncoderPath(parent: parent, name: name(), key: key()), "0")
      })
    {
      return .value(elements)
    }
    let child = ValueEncoding(
      session: session, path: ValueEncoderPath(parent: parent, name: name(), key: key()),
      nesting: nesting + 1, keepsMembers: false)
    try child.encodeGeneral(value)
    return child.storage
  }

  /// Encodes a value through a single-value container: this encoder takes what it encoded.
  func encodeSingle<T: Encodable>(_ value: T) throws {
    if let direct = try directValue(of: value, place: { ValueEncoderPath.place(path) }) {
      storage = .value(direct)
      return
    }
    let wrapped = ValueEncoding(
      session: session, path: path, nesting: nesting + 1, keepsMembers: keepsMembers)
    try wrapped.encodeGeneral(value)
    if case .empty = wrapped.storage {
      // `JSONEncoder` writes `{}` for a value that encodes nothing.
      storage = .object(EncodedObject(path: path, validatesKeys: !keepsMembers))
    } else {
      storage = wrapped.storage
    }
  }

  /// Runs the value's own encoding into this encoder (or the application's closure for dates
  /// and data with a `.custom` strategy).
  private func encodeGeneral<T: Encodable>(_ value: T) throws {
    guard nesting <= ValueEncoder.maximumNesting else {
      throw WebcomError(
        .invalidValue,
        "the value at \(ValueEncoderPath.place(path)) cannot be stored: its encode(to:) calls "
          + "are nested more than \(ValueEncoder.maximumNesting) deep")
    }
    if T.self == Date.self, case .custom(let encode) = session.options.dates {
      try encode(value as! Date, self)
    } else if T.self == Data.self, case .custom(let encode) = session.options.data {
      try encode(value as! Data, self)
    } else if !session.options.keysAreDefault,
      let dictionary = value as? any StringKeyedEncodableDictionary
    {
      try dictionary.encodeMembers(into: objectWriter())
    } else {
      try value.encode(to: self)
    }
  }

  /// The value model of scalars and of the types `JSONEncoder` encodes itself; nil for the
  /// values whose own `encode(to:)` must run.
  ///
  /// - Parameter place: Where the value is, for messages.
  private func directValue<T: Encodable>(of value: T, place: () -> String) throws -> JSONValue? {
    if let plain = Self.plainValue(of: value) { return plain }
    if T.self == Double.self { return try number(value as! Double, place: place) }
    if T.self == Date.self { return try dateValue(value as! Date, place: place) }
    if T.self == Data.self { return dataValue(value as! Data) }
    if T.self == URL.self { return .string((value as! URL).absoluteString) }
    if T.self == Decimal.self {
      return try number(text: (value as! Decimal).description, place: place)
    }
    if T.self == Float.self { return try number(value as! Float, place: place) }
    if T.self == UInt.self { return Self.number(UInt64(value as! UInt)) }
    if T.self == UInt64.self { return Self.number(value as! UInt64) }
    if T.self == Int128.self { return Self.number(value as! Int128) }
    if T.self == UInt128.self { return Self.number(value as! UInt128) }
    return nil
  }

  /// The value model of the scalars that no strategy of an encoder changes and that always
  /// encode (strings, booleans, integers that fit in `Int64`); nil for other values. It needs no
  /// encoder: a top-level value of these types is stored without setting one up.
  static func plainValue<T: Encodable>(of value: T) -> JSONValue? {
    // Metatype comparisons are cheap; a cast runs only once the type is known.
    if T.self == String.self { return .string(value as! String) }
    if T.self == Int.self { return .int(Int64(value as! Int)) }
    if T.self == Bool.self { return .bool(value as! Bool) }
    if T.self == Int64.self { return .int(value as! Int64) }
    if T.self == Int32.self { return .int(Int64(value as! Int32)) }
    if T.self == Int16.self { return .int(Int64(value as! Int16)) }
    if T.self == Int8.self { return .int(Int64(value as! Int8)) }
    if T.self == UInt32.self { return .int(Int64(value as! UInt32)) }
    if T.self == UInt16.self { return .int(Int64(value as! UInt16)) }
    if T.self == UInt8.self { return .int(Int64(value as! UInt8)) }
    return nil
  }

  /// The value model of the arrays of scalars that apps encode most, built without running
  /// their `encode(to:)`; nil for other values.
  ///
  /// - Parameters:
  ///   - depth: The depth of the array (its elements are one level deeper).
  ///   - firstElementPlace: Where the first element is, for messages.
  private func directElements<T: Encodable>(
    of value: T, depth: Int, _ firstElementPlace: () -> String
  ) throws(WebcomError) -> JSONValue? {
    if T.self == [String].self {
      return try Self.object(of: value as! [String], depth, firstElementPlace) { .string($0) }
    }
    if T.self == [Int].self {
      return try Self.object(of: value as! [Int], depth, firstElementPlace) { .int(Int64($0)) }
    }
    if T.self == [Bool].self {
      return try Self.object(of: value as! [Bool], depth, firstElementPlace) { .bool($0) }
    }
    return nil
  }

  private static func object<Element>(
    of elements: [Element], _ depth: Int, _ firstElementPlace: () -> String,
    _ value: (Element) -> JSONValue
  ) throws(WebcomError) -> JSONValue {
    guard !elements.isEmpty else { return .null }
    guard depth < JSONValue.maximumDepth else {
      throw WebcomError(
        .invalidValue,
        "the value at \(firstElementPlace()) cannot be stored: it is nested deeper than "
          + "\(JSONValue.maximumDepth) levels")
    }
    var pairs: [JSONObject.Element] = []
    pairs.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      pairs.append((EncodedArray.key(of: index), value(element)))
    }
    return .object(JSONObject(sortedUniqueNonNullPairs: pairs))
  }

  private func dateValue(_ date: Date, place: () -> String) throws -> JSONValue? {
    switch session.options.dates {
    case .deferredToDate: return try number(date.timeIntervalSinceReferenceDate, place: place)
    case .secondsSince1970: return try number(date.timeIntervalSince1970, place: place)
    case .millisecondsSince1970:
      return try number(1000 * date.timeIntervalSince1970, place: place)
    case .iso8601: return .string(date.formatted(.iso8601))
    case .custom: return nil
    @unknown default: return nil
    }
  }

  private func dataValue(_ data: Data) -> JSONValue? {
    switch session.options.data {
    case .base64: .string(data.base64EncodedString())
    default: nil
    }
  }

  // MARK: Numbers

  /// A finite floating number as `JSONEncoder` writes it: integral numbers up to 2^53 without a
  /// fraction (so they are stored as integers); NaN and infinities as the strategy says.
  func number(_ double: Double, place: () -> String) throws(WebcomError) -> JSONValue {
    guard double.isFinite else { return try nonConforming(double, place: place) }
    if double.rounded(.towardZero) == double, double.magnitude <= 9_007_199_254_740_992 {
      return .int(Int64(double))
    }
    return .double(double)
  }

  /// A `Float` as `JSONEncoder` writes it: its shortest text (`0.1` stays `0.1`, not the
  /// `Double` nearest to the `Float`).
  func number(_ float: Float, place: () -> String) throws(WebcomError) -> JSONValue {
    guard float.isFinite else { return try nonConforming(Double(float), place: place) }
    return try number(text: float.description, place: place)
  }

  /// A number read from its decimal text as the JSON parser reads it: an integer when it has no
  /// fraction (a `.0` fraction is dropped, as `JSONEncoder` does) and fits in `Int64`.
  func number(text: String, place: () -> String) throws(WebcomError) -> JSONValue {
    let integral = text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    if let integer = Int64(integral) { return .int(integer) }
    guard let double = Double(integral), double.isFinite else {
      throw WebcomError(
        .invalidValue,
        "the number at \(place()) of the value of type "
          + "\(session.rootType) is \(text): NaN and infinities cannot be stored")
    }
    return .double(double)
  }

  static func number(_ integer: UInt64) -> JSONValue {
    integer <= UInt64(Int64.max) ? .int(Int64(integer)) : .double(Double(integer))
  }

  static func number(_ integer: Int128) -> JSONValue {
    Int64(exactly: integer).map(JSONValue.int) ?? .double(Double(integer))
  }

  static func number(_ integer: UInt128) -> JSONValue {
    Int64(exactly: integer).map(JSONValue.int) ?? .double(Double(integer))
  }

  private func nonConforming(_ double: Double, place: () -> String) throws(WebcomError)
    -> JSONValue
  {
    guard let strings = session.options.nonConformingFloats else {
      throw WebcomError(
        .invalidValue,
        "the number at \(place()) of the value of type "
          + "\(session.rootType) is \(double): NaN and infinities cannot be stored")
    }
    if double.isNaN { return .string(strings.nan) }
    return .string(double > 0 ? strings.positiveInfinity : strings.negativeInfinity)
  }
}
