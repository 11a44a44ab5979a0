/// The unkeyed container of ``ValueDecoder`` over the elements of an object that stores an array
/// (``JSONValue/arrayElements``; gaps are null elements).
///
/// As in `JSONDecoder`, `decodeIfPresent` moves past the end without failing, and `decodeNil`
/// moves on only when the element is null.
struct ValueDecoderUnkeyedContainer: UnkeyedDecodingContainer {
  private let decoder: ValueDecoder
  private let elements: [JSONValue]
  private let path: ValueDecodingPath
  private(set) var currentIndex = 0

  init(decoder: ValueDecoder, elements: [JSONValue], path: ValueDecodingPath) {
    self.decoder = decoder
    self.elements = elements
    self.path = path.sharingPrefix()
  }

  var codingPath: [any CodingKey] { path.keys }

  var count: Int? { elements.count }

  var isAtEnd: Bool { currentIndex >= elements.count }

  private var currentKey: ValueDecodingKey { .index(currentIndex) }

  /// The current element; at the end, a `valueNotFound` error for `type`.
  private func currentElement(
    for type: Any.Type, atEnd message: String = "Unkeyed container is at end."
  ) throws -> JSONValue {
    guard currentIndex < elements.count else {
      throw DecodingError.valueNotFound(
        type,
        DecodingError.Context(
          codingPath: path.keys(appending: currentKey), debugDescription: message))
    }
    return elements[currentIndex]
  }

  /// The current element, `nil` at the end or when null.
  private var currentNonNullElement: JSONValue? {
    guard currentIndex < elements.count else { return nil }
    let element = elements[currentIndex]
    if case .null = element { return nil }
    return element
  }

  /// How to decode an element: given the decoder, the element, the container's path and the
  /// element's key.
  private typealias ElementDecoding<T> = (
    ValueDecoder, JSONValue, ValueDecodingPath, ValueDecodingKey
  )
    throws -> T

  /// Decodes the current element with `decode` and moves to the next one.
  private mutating func next<T>(_ type: T.Type, _ decode: ElementDecoding<T>) throws -> T {
    let result = try decode(decoder, currentElement(for: type), path, currentKey)
    currentIndex += 1
    return result
  }

  /// Decodes the current element with `decode` unless it is null or past the end, and moves to
  /// the next one.
  private mutating func nextIfPresent<T>(_ decode: ElementDecoding<T>) throws -> T? {
    let result = try currentNonNullElement.map { try decode(decoder, $0, path, currentKey) }
    currentIndex += 1
    return result
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try currentElement(for: Never.self) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    try next(type) { try $0.bool($1, in: $2, key: $3) }
  }

  mutating func decode(_ type: String.Type) throws -> String {
    try next(type) { try $0.string($1, in: $2, key: $3) }
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    try next(type) { try $0.double($1, in: $2, key: $3) }
  }

  mutating func decode(_ type: Float.Type) throws -> Float {
    try next(type) { try $0.float($1, in: $2, key: $3) }
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    try nextInteger(type)
  }

  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    try nextInteger(type)
  }

  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    try nextInteger(type)
  }

  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    try nextInteger(type)
  }

  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    try nextInteger(type)
  }

  mutating func decode(_ type: Int128.Type) throws -> Int128 {
    try nextInteger(type)
  }

  mutating func decode(_ type: UInt.Type) throws -> UInt {
    try nextInteger(type)
  }

  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    try nextInteger(type)
  }

  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    try nextInteger(type)
  }

  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    try nextInteger(type)
  }

  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    try nextInteger(type)
  }

  mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
    try nextInteger(type)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    try next(type) { try $0.unwrap($1, as: type, in: $2, key: $3) }
  }

  private mutating func nextInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
    try next(type) { try $0.integer($1, as: type, in: $2, key: $3) }
  }

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    try nextIfPresent { try $0.bool($1, in: $2, key: $3) }
  }

  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    try nextIfPresent { try $0.string($1, in: $2, key: $3) }
  }

  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    try nextIfPresent { try $0.double($1, in: $2, key: $3) }
  }

  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    try nextIfPresent { try $0.float($1, in: $2, key: $3) }
  }

  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
    try nextIntegerIfPresent(type)
  }

  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    try nextIfPresent { try $0.unwrap($1, as: type, in: $2, key: $3) }
  }

  private mutating func nextIntegerIfPresent<T: FixedWidthInteger>(_ type: T.Type) throws -> T? {
    try nextIfPresent { try $0.integer($1, as: type, in: $2, key: $3) }
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    try next(KeyedDecodingContainer<NestedKey>.self) {
      try $0.keyedContainer(keyedBy: type, for: $1, at: $2.appending($3))
    }
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    try next((any UnkeyedDecodingContainer).self) {
      try $0.unkeyedContainer(for: $1, at: $2.appending($3))
    }
  }

  mutating func superDecoder() throws -> any Decoder {
    let element = try currentElement(
      for: (any Decoder).self, atEnd: "Cannot get superDecoder() -- unkeyed container is at end.")
    let decoder = decoder.independentDecoder(for: element, at: path.appending(currentKey))
    currentIndex += 1
    return decoder
  }
}
