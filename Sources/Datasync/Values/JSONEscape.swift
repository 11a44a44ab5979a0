/// The escapes of JSON strings, shared by every reader of JSON-like text (values, rules documents,
/// rule expressions).
enum JSONEscape {
  /// The byte a one-character escape stands for, given the byte after the backslash (`n` for
  /// `\n`); nil for `u`, which starts an escape of four hexadecimal digits, and for anything
  /// that is no JSON escape.
  @inline(__always)
  static func byte(escapedBy byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    default: nil
    }
  }
}
