/// A token of a rule expression, with the UTF-8 offset where it starts.
struct RuleToken {
  /// The operators and punctuation of the language.
  enum Symbol: String {
    case leftParenthesis = "("
    case rightParenthesis = ")"
    case leftBracket = "["
    case rightBracket = "]"
    case comma = ","
    case dot = "."
    case question = "?"
    case colon = ":"
    case not = "!"
    case equal = "=="
    case strictEqual = "==="
    case notEqual = "!="
    case strictNotEqual = "!=="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case and = "&&"
    case or = "||"
    case plus = "+"
    case minus = "-"
    case times = "*"
    case slash = "/"
    case percent = "%"
  }

  enum Kind {
    case integer(Int64)
    case double(Double)
    case string(String)
    case identifier(String)
    /// A `$` variable, without its `$`.
    case variable(String)
    case symbol(Symbol)
    case end
  }

  let kind: Kind
  /// The UTF-8 offset of the token's first byte in the expression.
  let offset: Int

  /// The token as the user wrote it, for messages.
  var spelling: String {
    switch kind {
    case .integer(let value): "\(value)"
    case .double(let value): "\(value)"
    case .string(let value): WebcomKey.quoted(value)
    case .identifier(let name): name
    case .variable(let name): "$" + name
    case .symbol(let symbol): symbol.rawValue
    case .end: "the end of the expression"
    }
  }
}

/// A syntax error in a rule expression, at a UTF-8 offset.
struct RuleSyntaxError: Error {
  /// The UTF-8 offset of the culprit in the expression.
  let offset: Int
  /// What was expected or what is wrong.
  let message: String
}

/// Splits a rule expression into tokens, one at a time.
///
/// Numbers are decimal (`12`, `1.5`, `2e3`); strings are between `'` or `"`, with the escapes
/// `\\ \' \" \/ \b \f \n \r \t`, and `\u` with four hexadecimal digits, a surrogate pair in two
/// such escapes making one scalar (see ``QuotedStringReader``); identifiers are ASCII letters,
/// digits and `_`, not starting with a digit; a `$` variable is `$` followed by an identifier. A regular expression
/// literal is read only when the parser asks for one (``regularExpression(at:)``), since `/` is
/// also the division operator.
struct RuleLexer {
  private let bytes: [UInt8]
  /// The offset of the next byte to read.
  private var position = 0

  init(_ text: String) {
    bytes = Array(text.utf8)
  }

  /// Reads the next token.
  mutating func next() throws(RuleSyntaxError) -> RuleToken {
    skipWhitespace()
    let start = position
    guard position < bytes.count else { return RuleToken(kind: .end, offset: start) }
    let byte = bytes[position]
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"):
      return RuleToken(kind: try number(), offset: start)
    case UInt8(ascii: "'"), UInt8(ascii: "\""):
      return RuleToken(kind: .string(try string(quote: byte)), offset: start)
    case UInt8(ascii: "$"):
      position += 1
      guard position < bytes.count, Self.isIdentifierStart(bytes[position]) else {
        throw RuleSyntaxError(offset: start, message: "expected a variable name after \"$\"")
      }
      return RuleToken(kind: .variable(identifier()), offset: start)
    case _ where Self.isIdentifierStart(byte):
      return RuleToken(kind: .identifier(identifier()), offset: start)
    default:
      return RuleToken(kind: .symbol(try symbol()), offset: start)
    }
  }

  /// Reads a regular expression literal `/pattern/flags` starting at `offset` (on its `/`).
  ///
  /// - Returns: The pattern, its offset (after the opening `/`) and the flags.
  mutating func regularExpression(at offset: Int) throws(RuleSyntaxError) -> (
    pattern: String, patternOffset: Int, flags: String
  ) {
    position = offset + 1
    var inClass = false
    while true {
      guard position < bytes.count else {
        throw RuleSyntaxError(
          offset: offset, message: "the regular expression has no closing \"/\"")
      }
      let byte = bytes[position]
      if byte == UInt8(ascii: "\\") {
        position += 2
        continue
      }
      if byte == UInt8(ascii: "[") { inClass = true }
      if byte == UInt8(ascii: "]") { inClass = false }
      if byte == UInt8(ascii: "/") && !inClass { break }
      position += 1
    }
    let pattern = String(decoding: bytes[(offset + 1)..<position], as: UTF8.self)
    position += 1
    let flagsStart = position
    while position < bytes.count, Self.isIdentifierPart(bytes[position]) { position += 1 }
    let flags = String(decoding: bytes[flagsStart..<position], as: UTF8.self)
    return (pattern, offset + 1, flags)
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "_"):
      true
    default: false
    }
  }

  private static func isIdentifierPart(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func identifier() -> String {
    let start = position
    while position < bytes.count, Self.isIdentifierPart(bytes[position]) { position += 1 }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  private mutating func digits() -> Int {
    let start = position
    while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position])
    {
      position += 1
    }
    return position - start
  }

  private mutating func number() throws(RuleSyntaxError) -> RuleToken.Kind {
    let start = position
    _ = digits()
    var isInteger = true
    if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "."),
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position + 1])
    {
      position += 1
      _ = digits()
      isInteger = false
    }
    if position < bytes.count,
      bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E")
    {
      position += 1
      if position < bytes.count,
        bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
      {
        position += 1
      }
      guard digits() > 0 else {
        throw RuleSyntaxError(offset: start, message: "expected digits in the number's exponent")
      }
      isInteger = false
    }
    if position < bytes.count, Self.isIdentifierStart(bytes[position]) {
      throw RuleSyntaxError(
        offset: position, message: "expected an operator after the number, found a letter")
    }
    let text = String(decoding: bytes[start..<position], as: UTF8.self)
    if isInteger, let integer = Int64(text) { return .integer(integer) }
    guard let double = Double(text), double.isFinite else {
      throw RuleSyntaxError(offset: start, message: "the number \(text) is out of range")
    }
    return .double(double)
  }

  private mutating func string(quote: UInt8) throws(RuleSyntaxError) -> String {
    try QuotedStringReader.expression(closedBy: quote).read(bytes, at: &position)
  }

  private mutating func symbol() throws(RuleSyntaxError) -> RuleToken.Symbol {
    let start = position
    func followed(by text: String) -> Bool {
      let utf8 = Array(text.utf8)
      guard start + utf8.count <= bytes.count else { return false }
      return bytes[start..<(start + utf8.count)].elementsEqual(utf8)
    }
    for symbol in Self.symbolsLongestFirst where followed(by: symbol.rawValue) {
      position += symbol.rawValue.utf8.count
      return symbol
    }
    let scalar = String(decoding: bytes[start...].prefix(4), as: UTF8.self).unicodeScalars.first
    let shown = scalar.map { WebcomKey.quoted(String($0)) } ?? "a byte"
    if bytes[start] == UInt8(ascii: "=") {
      throw RuleSyntaxError(offset: start, message: "unexpected \"=\": compare with \"==\"")
    }
    if bytes[start] == UInt8(ascii: "&") || bytes[start] == UInt8(ascii: "|") {
      throw RuleSyntaxError(
        offset: start, message: "unexpected \(shown): the logical operators are \"&&\" and \"||\"")
    }
    throw RuleSyntaxError(offset: start, message: "unexpected character \(shown)")
  }

  /// The value of hexadecimal digits (without sign or prefix), `nil` if one is not a digit.
  static func hexadecimalValue(of digits: some Collection<UInt8>) -> UInt32? {
    var value: UInt32 = 0
    for digit in digits {
      switch digit {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(digit - 0x30)
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(digit - 0x57)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(digit - 0x37)
      default: return nil
      }
    }
    return value
  }

  private static let symbolsLongestFirst: [RuleToken.Symbol] = [
    .strictEqual, .strictNotEqual, .equal, .notEqual, .lessOrEqual, .greaterOrEqual, .and, .or,
    .leftParenthesis, .rightParenthesis, .leftBracket, .rightBracket, .comma, .dot, .question,
    .colon, .not, .less, .greater, .plus, .minus, .times, .slash, .percent,
  ]
}
