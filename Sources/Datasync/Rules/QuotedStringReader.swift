/// Reads the quoted strings of the two languages of security rules: the rules document (JSON,
/// strings between `"`) and the rule expressions inside it (strings between `'` or `"`).
///
/// Both take the escapes of JSON — `\" \\ \/ \b \f \n \r \t` and `\u` with four hexadecimal
/// digits, a high surrogate followed by a low one in a second `\u` making one scalar — and the
/// expressions also `\'`. JSON forbids a raw control character (below U+0020) in a string; an
/// expression takes it as it is.
struct QuotedStringReader {
  /// The quote that closes the string (`"` or `'`).
  let quote: UInt8
  /// Whether `\'` stands for `'` (in rule expressions).
  let acceptsEscapedApostrophe: Bool
  /// Whether a raw control character is an error (in JSON).
  let rejectsControlCharacters: Bool

  /// The reader of the strings of a rules document.
  static let json = QuotedStringReader(
    quote: UInt8(ascii: "\""), acceptsEscapedApostrophe: false, rejectsControlCharacters: true)

  /// The reader of the strings of rule expressions closed by `quote`.
  static func expression(closedBy quote: UInt8) -> QuotedStringReader {
    QuotedStringReader(
      quote: quote, acceptsEscapedApostrophe: true, rejectsControlCharacters: false)
  }

  /// The string whose opening quote is at `position` in `bytes`; `position` is left after its
  /// closing quote.
  ///
  /// - Throws: ``RuleSyntaxError`` at the opening quote when the string is not closed, at the
  ///   backslash of an escape that is unknown, lacks its four hexadecimal digits or is a lone
  ///   surrogate, and at a raw control character where they are rejected.
  func read(_ bytes: [UInt8], at position: inout Int) throws(RuleSyntaxError) -> String {
    let start = position
    position += 1
    var scalars = String.UnicodeScalarView()
    var segmentStart = position
    while true {
      guard position < bytes.count else {
        throw RuleSyntaxError(offset: start, message: "the string has no closing quote")
      }
      let byte = bytes[position]
      if byte == quote {
        scalars.append(
          contentsOf: String(decoding: bytes[segmentStart..<position], as: UTF8.self).unicodeScalars
        )
        position += 1
        return String(scalars)
      }
      if byte < 0x20 && rejectsControlCharacters {
        throw RuleSyntaxError(
          offset: position, message: "a control character must be escaped in a string")
      }
      guard byte == UInt8(ascii: "\\") else {
        position += 1
        continue
      }
      scalars.append(
        contentsOf: String(decoding: bytes[segmentStart..<position], as: UTF8.self).unicodeScalars)
      scalars.append(try escape(in: bytes, at: &position, stringStart: start))
      segmentStart = position
    }
  }

  /// The scalar an escape stands for; `position` is at its backslash, and is left after it.
  private func escape(in bytes: [UInt8], at position: inout Int, stringStart: Int)
    throws(RuleSyntaxError) -> Unicode.Scalar
  {
    let backslash = position
    position += 1
    guard position < bytes.count else {
      throw RuleSyntaxError(offset: stringStart, message: "the string has no closing quote")
    }
    let escaped = bytes[position]
    position += 1
    if let character = JSONEscape.byte(escapedBy: escaped) { return Unicode.Scalar(character) }
    if escaped == UInt8(ascii: "'") && acceptsEscapedApostrophe { return Unicode.Scalar(escaped) }
    guard escaped == UInt8(ascii: "u") else {
      let shown =
        String(decoding: bytes[(position - 1)...].prefix(4), as: UTF8.self)
        .unicodeScalars.first.map(String.init) ?? ""
      throw RuleSyntaxError(offset: backslash, message: "unknown escape \\\(shown) in the string")
    }
    var code = try Self.hexadecimalDigits(in: bytes, at: &position, escape: backslash)
    if (0xD800...0xDBFF).contains(code), position + 1 < bytes.count,
      bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u")
    {
      position += 2
      let low = try Self.hexadecimalDigits(in: bytes, at: &position, escape: backslash)
      guard (0xDC00...0xDFFF).contains(low) else {
        throw RuleSyntaxError(
          offset: backslash, message: "a high surrogate must be followed by a low surrogate")
      }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    }
    guard let scalar = Unicode.Scalar(code) else {
      throw RuleSyntaxError(offset: backslash, message: "the escape \\u is a lone surrogate")
    }
    return scalar
  }

  /// The value of the four hexadecimal digits at `position`, which is left after them.
  private static func hexadecimalDigits(in bytes: [UInt8], at position: inout Int, escape: Int)
    throws(RuleSyntaxError) -> UInt32
  {
    guard position + 4 <= bytes.count,
      let code = RuleLexer.hexadecimalValue(of: bytes[position..<(position + 4)])
    else {
      throw RuleSyntaxError(offset: escape, message: "expected four hexadecimal digits after \\u")
    }
    position += 4
    return code
  }
}
