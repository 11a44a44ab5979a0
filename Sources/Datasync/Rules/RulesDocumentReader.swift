/// Reads the JSON text of a rules document, keeping where each value starts.
///
/// The text is JSON (RFC 8259) plus comments, as the hosted service's console accepts them:
/// `// …` to the end of the line and `/* … */`. Objects keep their members in order, duplicates
/// included (the compiler rejects them by name). Nesting is limited to ``maximumDepth`` levels.
struct RulesDocumentReader {
  /// The deepest nesting of a document.
  static let maximumDepth = 64

  /// A JSON value and the UTF-8 offset where it starts.
  indirect enum Value {
    case object([Member], offset: Int)
    case array([Value], offset: Int)
    case string(String, offset: Int)
    case bool(Bool, offset: Int)
    case number(offset: Int)
    case null(offset: Int)

    var offset: Int {
      switch self {
      case .object(_, let offset), .array(_, let offset), .string(_, let offset),
        .bool(_, let offset), .number(let offset), .null(let offset):
        offset
      }
    }

    /// The kind of the value with an article, for messages.
    var kindDescription: String {
      switch self {
      case .object: "an object"
      case .array: "an array"
      case .string: "a string"
      case .bool: "a boolean"
      case .number: "a number"
      case .null: "null"
      }
    }
  }

  /// A member of an object.
  struct Member {
    let key: String
    let keyOffset: Int
    let value: Value
  }

  private let bytes: [UInt8]
  private var position = 0

  private init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// Reads a whole document.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the line, the column and what
  ///   was expected.
  static func read(_ text: String) throws(WebcomError) -> Value {
    var reader = RulesDocumentReader(text)
    do throws(RuleSyntaxError) {
      try reader.skipSpace()
      let value = try reader.value(depth: 0)
      try reader.skipSpace()
      guard reader.position == reader.bytes.count else {
        throw RuleSyntaxError(
          offset: reader.position, message: "expected the end of the document after its value")
      }
      return value
    } catch {
      throw WebcomError(
        .invalidArgument,
        "the rules document is malformed at \(location(of: error.offset, in: text)): "
          + error.message)
    }
  }

  /// "line L, column C" (both from 1, columns in Unicode scalars) of a UTF-8 offset of `text`.
  static func location(of offset: Int, in text: String) -> String {
    var line = 1
    var lineStart = 0
    let utf8 = Array(text.utf8)
    let end = min(offset, utf8.count)
    for index in 0..<end where utf8[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    let column = 1 + utf8[lineStart..<end].filter { $0 & 0xC0 != 0x80 }.count
    return "line \(line), column \(column)"
  }

  private func error(_ message: String, at offset: Int? = nil) -> RuleSyntaxError {
    RuleSyntaxError(offset: offset ?? position, message: message)
  }

  private var found: String {
    guard position < bytes.count else { return "the end of the document" }
    let scalar = String(decoding: bytes[position...].prefix(4), as: UTF8.self).unicodeScalars.first
    return scalar.map { WebcomKey.quoted(String($0)) } ?? "a byte"
  }

  private mutating func skipSpace() throws(RuleSyntaxError) {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D:
        position += 1
      case UInt8(ascii: "/") where position + 1 < bytes.count:
        let start = position
        if bytes[position + 1] == UInt8(ascii: "/") {
          while position < bytes.count, bytes[position] != 0x0A { position += 1 }
        } else if bytes[position + 1] == UInt8(ascii: "*") {
          position += 2
          while position + 1 < bytes.count,
            !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
          {
            position += 1
          }
          guard position + 1 < bytes.count else {
            throw error("the comment has no closing \"*/\"", at: start)
          }
          position += 2
        } else {
          return
        }
      default:
        return
      }
    }
  }

  private mutating func value(depth: Int) throws(RuleSyntaxError) -> Value {
    guard depth < Self.maximumDepth else {
      throw error("the document is nested more than \(Self.maximumDepth) levels deep")
    }
    let start = position
    guard position < bytes.count else { throw error("expected a value, found \(found)") }
    switch bytes[position] {
    case UInt8(ascii: "{"):
      position += 1
      var members: [Member] = []
      try skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members, offset: start)
      }
      while true {
        try skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
          throw error("expected a member name in double quotes, found \(found)")
        }
        let keyOffset = position
        let key = try string()
        try skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
          throw error("expected \":\" after the member name, found \(found)")
        }
        position += 1
        try skipSpace()
        members.append(Member(key: key, keyOffset: keyOffset, value: try value(depth: depth + 1)))
        try skipSpace()
        guard position < bytes.count else { throw error("expected \",\" or \"}\", found \(found)") }
        if bytes[position] == UInt8(ascii: "}") {
          position += 1
          return .object(members, offset: start)
        }
        guard bytes[position] == UInt8(ascii: ",") else {
          throw error("expected \",\" or \"}\" after the member, found \(found)")
        }
        position += 1
      }
    case UInt8(ascii: "["):
      position += 1
      var elements: [Value] = []
      try skipSpace()
      if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements, offset: start)
      }
      while true {
        try skipSpace()
        elements.append(try value(depth: depth + 1))
        try skipSpace()
        guard position < bytes.count else { throw error("expected \",\" or \"]\", found \(found)") }
        if bytes[position] == UInt8(ascii: "]") {
          position += 1
          return .array(elements, offset: start)
        }
        guard bytes[position] == UInt8(ascii: ",") else {
          throw error("expected \",\" or \"]\" after the element, found \(found)")
        }
        position += 1
      }
    case UInt8(ascii: "\""):
      return .string(try string(), offset: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      try number()
      return .number(offset: start)
    default:
      for (word, value) in [
        ("true", Value.bool(true, offset: start)), ("false", .bool(false, offset: start)),
        ("null", .null(offset: start)),
      ]
      where bytes[position...].starts(with: word.utf8) {
        position += word.utf8.count
        return value
      }
      throw error("expected a value, found \(found)")
    }
  }

  private mutating func number() throws(RuleSyntaxError) {
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    func digits() -> Int {
      let start = position
      while position < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
      {
        position += 1
      }
      return position - start
    }
    guard digits() > 0 else { throw error("expected digits in the number") }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard digits() > 0 else { throw error("expected digits after the decimal point") }
    }
    if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else { throw error("expected digits in the exponent") }
    }
  }

  private mutating func string() throws(RuleSyntaxError) -> String {
    try QuotedStringReader.json.read(bytes, at: &position)
  }

}
