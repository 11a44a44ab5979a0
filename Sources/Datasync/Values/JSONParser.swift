import Foundation

/// Parses UTF-8 JSON text (RFC 8259) straight into the normalised value model.
///
/// Integers without fraction or exponent that fit in `Int64` become `.int`, other numbers
/// `.double` (out of the finite range: an error). Object keys must be valid keys, except the
/// server-value object `{".sv": "timestamp"}` (and, when allowed, `{".sv": {"increment": n}}`).
/// Duplicate keys: the last one wins.
struct JSONParser {
  /// A failure, with the keys from the failing value up to the top (innermost first).
  struct Failure: Error {
    let code: WebcomError.Code
    let reason: String
    var reversedKeys: [String] = []
  }

  let bytes: UnsafeRawBufferPointer
  var index = 0
  /// Whether `{".sv": {"increment": n}}` is accepted as well as the timestamp.
  private let allowsIncrements: Bool

  private init(bytes: UnsafeRawBufferPointer, allowsIncrements: Bool) {
    self.bytes = bytes
    self.allowsIncrements = allowsIncrements
  }

  /// Parses a whole JSON text.
  ///
  /// - Parameter allowsIncrements: Whether the increment server value
  ///   `{".sv": {"increment": n}}` is accepted (the back end resolves it when it applies a
  ///   write; see ``JSONValue/resolvingServerIncrements(against:)``).
  static func parse(_ data: some ContiguousBytes, allowsIncrements: Bool = false)
    throws(WebcomError) -> JSONValue
  {
    try run(data, allowsIncrements: allowsIncrements) { parser throws(Failure) in
      try parser.parseValue(depth: 0)
    }
  }

  /// Parses a JSON text that must be an object, keeping its members as written: keys are not
  /// checked (the caller checks them, for example as the `/`-separated paths of a merge), null
  /// values are kept, and a repeated key keeps its last value. Values are parsed as by
  /// ``parse(_:allowsIncrements:)`` (with increments allowed).
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` when the text is not a JSON object, or
  ///   as ``parse(_:allowsIncrements:)`` for a member's value.
  static func parseMembers(_ data: some ContiguousBytes) throws(WebcomError)
    -> [(key: String, value: JSONValue)]
  {
    try run(data, allowsIncrements: true) { parser throws(Failure) in
      try parser.parseTopLevelMembers()
    }
  }

  /// Reads a JSON text that must be an object, without parsing its members' values: each
  /// member's key and the bytes of its value in the text (checked to be well-formed JSON, keys
  /// not checked), in order; a repeated key keeps its last value. The caller parses each value as
  /// it needs (``parse(_:allowsIncrements:)``, ``parseMembers(_:)``).
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` when the text is not a well-formed JSON
  ///   object (or nests deeper than 64 levels).
  static func rawMembers(_ data: some ContiguousBytes) throws(WebcomError)
    -> [(key: String, value: Range<Int>)]
  {
    try run(data, allowsIncrements: false) { parser throws(Failure) in
      parser.skipWhitespace()
      guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "{")
      else { throw Failure(code: .invalidValue, reason: "a JSON object is expected") }
      var members: [(key: String, value: Range<Int>)] = []
      try parser.skipContainer(depth: 0) { parser, key, range in
        if let key, let position = members.firstIndex(where: { $0.key == key }) {
          members[position].value = range
        } else if let key {
          members.append((key, range))
        }
      }
      return members
    }
  }

  /// Reads a JSON text that must be an array, without parsing its elements: the bytes of each
  /// element in the text (checked to be well-formed JSON), in order.
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` when the text is not a well-formed JSON
  ///   array (or nests deeper than 64 levels).
  static func rawElements(_ data: some ContiguousBytes) throws(WebcomError) -> [Range<Int>] {
    try run(data, allowsIncrements: false) { parser throws(Failure) in
      parser.skipWhitespace()
      guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "[")
      else { throw Failure(code: .invalidValue, reason: "a JSON array is expected") }
      var elements: [Range<Int>] = []
      try parser.skipContainer(depth: 0) { _, _, range in elements.append(range) }
      return elements
    }
  }

  /// The deepest nesting a skipped value may have.
  private static let maximumSkippedDepth = 64

  /// Skips a value, checking that it is well-formed JSON (keys of any text).
  private mutating func skipValue(depth: Int) throws(Failure) {
    skipWhitespace()
    guard index < bytes.count else { throw malformed("unexpected end") }
    switch bytes[index] {
    case UInt8(ascii: "{"), UInt8(ascii: "["): try skipContainer(depth: depth) { _, _, _ in }
    case UInt8(ascii: "\""): _ = try parseString()
    case UInt8(ascii: "t"): _ = try expect("true", value: .null)
    case UInt8(ascii: "f"): _ = try expect("false", value: .null)
    case UInt8(ascii: "n"): _ = try expect("null", value: .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): _ = try parseNumber()
    default: throw malformed("unexpected character")
    }
  }

  /// Skips an object or an array at `index`, reporting each member (with its key) or element
  /// (without) and the bytes of its value.
  private mutating func skipContainer(
    depth: Int, _ report: (inout JSONParser, String?, Range<Int>) throws(Failure) -> Void
  ) throws(Failure) {
    let isObject = bytes[index] == UInt8(ascii: "{")
    let close = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
    guard depth < Self.maximumSkippedDepth else {
      throw Failure(
        code: .invalidValue, reason: "it is nested deeper than \(Self.maximumSkippedDepth) levels")
    }
    index += 1
    skipWhitespace()
    if index < bytes.count, bytes[index] == close {
      index += 1
      return
    }
    while true {
      var key: String?
      if isObject {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
          throw malformed("expected a key")
        }
        key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
          throw malformed("expected \":\"")
        }
        index += 1
      }
      skipWhitespace()
      let start = index
      try skipValue(depth: depth + 1)
      try report(&self, key, start..<index)
      if try skipSeparator(orClosing: close) { return }
    }
  }

  private static func run<Result>(
    _ data: some ContiguousBytes, allowsIncrements: Bool,
    _ body: (inout JSONParser) throws(Failure) -> Result
  ) throws(WebcomError) -> Result {
    let result: Swift.Result<Result, Failure> = data.withUnsafeBytes { buffer in
      var parser = JSONParser(bytes: buffer, allowsIncrements: allowsIncrements)
      do throws(Failure) {
        let value = try body(&parser)
        parser.skipWhitespace()
        guard parser.index == buffer.count else {
          throw parser.malformed("unexpected data after the JSON value")
        }
        return .success(value)
      } catch {
        return .failure(error)
      }
    }
    switch result {
    case .success(let value):
      return value
    case .failure(let failure):
      let place =
        failure.reversedKeys.isEmpty
        ? "" : " at \"" + failure.reversedKeys.reversed().joined(separator: "/") + "\""
      throw WebcomError(failure.code, "the value\(place) cannot be stored: \(failure.reason)")
    }
  }

  private mutating func parseTopLevelMembers() throws(Failure) -> [(key: String, value: JSONValue)]
  {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
      throw Failure(code: .invalidValue, reason: "a JSON object is expected")
    }
    index += 1
    var members: [(key: String, value: JSONValue)] = []
    var positions: [String: Int] = [:]
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return members
    }
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw malformed("expected a key")
      }
      let name = try parseString()
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw malformed("expected \":\"")
      }
      index += 1
      let value: JSONValue
      do throws(Failure) {
        value = try parseValue(depth: 1)
      } catch {
        var failure = error
        failure.reversedKeys.append(name)
        throw failure
      }
      if let position = positions[name] {
        members[position].value = value
      } else {
        positions[name] = members.count
        members.append((name, value))
      }
      if try skipSeparator(orClosing: UInt8(ascii: "}")) { return members }
    }
  }

  func malformed(_ reason: String) -> Failure {
    Failure(code: .invalidValue, reason: "malformed JSON at byte \(index): \(reason)")
  }

  /// Past a member or an element: skips whitespace, then a `,` (false: another member or
  /// element follows) or `closing`, the container's closing bracket (true: the container ends).
  private mutating func skipSeparator(orClosing closing: UInt8) throws(Failure) -> Bool {
    skipWhitespace()
    guard index < bytes.count else { throw malformed("unexpected end") }
    switch bytes[index] {
    case UInt8(ascii: ","):
      index += 1
      return false
    case closing:
      index += 1
      return true
    default:
      throw malformed("expected \",\" or \"\(Character(Unicode.Scalar(closing)))\"")
    }
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x0A, 0x0D, 0x09: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
    skipWhitespace()
    guard index < bytes.count else { throw malformed("unexpected end") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth)
    case UInt8(ascii: "["): return try parseArray(depth: depth)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
    case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
    case UInt8(ascii: "n"): return try expect("null", value: .null)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
    default: throw malformed("unexpected character")
    }
  }

  private func tooDeep() -> Failure {
    Failure(
      code: .invalidValue,
      reason: "it is nested deeper than \(JSONValue.maximumDepth) levels")
  }

  private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
    index += 1
    var pairs: [JSONObject.Element] = []
    pairs.reserveCapacity(8)
    var sorted = true
    var hasNull = false
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .null
    }
    guard depth < JSONValue.maximumDepth else { throw tooDeep() }
    var serverValueKeyIndex: Int?
    while true {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw malformed("expected a key")
      }
      var asciiBytes: UnsafeBufferPointer<UInt8>?
      let name = try parseString(asciiBytes: &asciiBytes)
      let key: WebcomKey
      if name == JSONValue.serverValueName {
        key = JSONValue.serverValueKey
        serverValueKeyIndex = pairs.count
      } else if let reason =
        asciiBytes.map(WebcomKey.invalidityReason) ?? WebcomKey.invalidityReason(of: name.utf8)
      {
        throw Failure(
          code: .invalidKey, reason: "the key \(WebcomKey.quoted(name)) is invalid: \(reason)",
          reversedKeys: [name])
      } else if let asciiBytes {
        key = WebcomKey(name, utf8: asciiBytes)
      } else {
        key = WebcomKey(name)
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw malformed("expected \":\"")
      }
      index += 1
      let value: JSONValue
      do throws(Failure) {
        value = try parseValue(depth: depth + 1)
      } catch {
        var failure = error
        failure.reversedKeys.append(name)
        throw failure
      }
      if sorted, let previous = pairs.last, !(previous.key < key) { sorted = false }
      if value.isNull { hasNull = true }
      pairs.append((key, value))
      if try skipSeparator(orClosing: UInt8(ascii: "}")) { break }
    }
    if let serverValueKeyIndex {
      let placeholder = pairs[serverValueKeyIndex].value
      let isTimestamp = placeholder == .string(WebcomDate.serverTimestampName)
      let isIncrement = allowsIncrements && JSONValue.incrementStep(of: placeholder) != nil
      guard pairs.count == 1, isTimestamp || isIncrement else {
        throw Failure(
          code: .invalidKey,
          reason: "the key \".sv\" is invalid: it is only allowed in the server value "
            + (allowsIncrements
              ? "{\".sv\": \"timestamp\"} or {\".sv\": {\"increment\": <number>}}"
              : "{\".sv\": \"timestamp\"}"),
          reversedKeys: [JSONValue.serverValueKey.value])
      }
    }
    if !sorted { JSONObject.sortKeepingLast(&pairs) }
    if hasNull { pairs.removeAll { $0.value.isNull } }
    return pairs.isEmpty ? .null : .object(JSONObject(sortedUniqueNonNullPairs: pairs))
  }

  private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
    index += 1
    skipWhitespace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .null
    }
    guard depth < JSONValue.maximumDepth else { throw tooDeep() }
    var pairs: [JSONObject.Element] = []
    pairs.reserveCapacity(8)
    var position = 0
    while true {
      let value: JSONValue
      do throws(Failure) {
        value = try parseValue(depth: depth + 1)
      } catch {
        var failure = error
        failure.reversedKeys.append(String(position))
        throw failure
      }
      if !value.isNull { pairs.append((WebcomKey(String(position)), value)) }
      position += 1
      if try skipSeparator(orClosing: UInt8(ascii: "]")) { break }
    }
    return pairs.isEmpty ? .null : .object(JSONObject(sortedUniqueNonNullPairs: pairs))
  }
}
