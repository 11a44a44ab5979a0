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

  /// The scalar `result` decoded from the current element, or the error for decoding it as
  /// `type`; moves to the next element when there is a result.
  private mutating func advancing<T>(_ result: T?, _ type: T.Type, from element: JSONValue)
    throws -> T
  {
    guard let result else {
      throw decoder.failure(
        decoding: type, from: element, at: path.keys(appending: currentKey))
    }
    currentIndex += 1
    return result
  }

  /// The scalar `result` decoded from the current element, `nil` when it is null or past the
  /// end, or the error for decoding it as `type`; moves to the next element unless it fails.
  private mutating func advancingIfPresent<T>(
    _ result: T?, _ type: T.Type, from element: JSONValue?
  ) throws -> T? {
    guard let element else {
      currentIndex += 1
      return nil
    }
    return try advancing(result, type, from: element)
  }

  mutating func decodeNil() throws -> Bool {
    guard case .null = try currentElement(for: Never.self) else { return false }
    currentIndex += 1
    return true
  }

  mutating func decode(_ type: Bool.Type) throws -> Bool {
    let element = try currentElement(for: type)
    return try advancing(decoder.bool(element), type, from: element)
  }

  mutating func decode(_ type: String.Type) throws -> String {
    let element = try currentElement(for: type)
    return try advancing(decoder.string(element), type, from: element)
  }

  mutating func decode(_ type: Double.Type) throws -> Double {
    let element = try currentElement(for: type)
    return try advancing(decoder.double(element), type, from: element)
  }

  mutating func decode(_ type: Float.Type) throws -> Float {
    let element = try currentElement(for: type)
    return try advancing(decoder.float(element), type, from: element)
  }

  mutating func decode(_ type: Int.Type) throws -> Int {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: Int8.Type) throws -> Int8 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: Int16.Type) throws -> Int16 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: Int32.Type) throws -> Int32 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: Int64.Type) throws -> Int64 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: Int128.Type) throws -> Int128 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: UInt.Type) throws -> UInt {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
    let element = try currentElement(for: type)
    return try advancing(decoder.integer(element, as: type), type, from: element)
  }

  mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let element = try currentElement(for: type)
    let result = try decoder.unwrap(element, as: type, at: path.appending(currentKey))
    currentIndex += 1
    return result
  }

  mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? {
    let element = currentNonNullElement
    return try advancingIfPresent(element.flatMap { decoder.bool($0) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: String.Type) throws -> String? {
    let element = currentNonNullElement
    return try advancingIfPresent(element.flatMap { decoder.string($0) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? {
    let element = currentNonNullElement
    return try advancingIfPresent(element.flatMap { decoder.double($0) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? {
    let element = currentNonNullElement
    return try advancingIfPresent(element.flatMap { decoder.float($0) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: Int128.Type) throws -> Int128? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent(_ type: UInt128.Type) throws -> UInt128? {
    let element = currentNonNullElement
    return try advancingIfPresent(
      element.flatMap { decoder.integer($0, as: type) }, type, from: element)
  }

  mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? {
    guard let element = currentNonNullElement else {
      currentIndex += 1
      return nil
    }
    let result = try decoder.unwrap(element, as: type, at: path.appending(currentKey))
    currentIndex += 1
    return result
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
    -> KeyedDecodingContainer<NestedKey>
  {
    let element = try currentElement(for: KeyedDecodingContainer<NestedKey>.self)
    let container = try decoder.keyedContainer(
      keyedBy: type, for: element, at: path.appending(currentKey))
    currentIndex += 1
    return container
  }

  mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    let element = try currentElement(for: (any UnkeyedDecodingContainer).self)
    let container = try decoder.unkeyedContainer(for: element, at: path.appending(currentKey))
    currentIndex += 1
    return container
  }

  mutating func superDecoder() throws -> any Decoder {
    let element = try currentElement(
      for: (any Decoder).self, atEnd: "Cannot get superDecoder() -- unkeyed container is at end.")
    let decoder = decoder.independentDecoder(for: element, at: path.appending(currentKey))
    currentIndex += 1
    return decoder
  }
}
