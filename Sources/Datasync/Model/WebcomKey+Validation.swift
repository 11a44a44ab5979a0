/// Checking that a key may name a child, and quoting keys in messages.
extension WebcomKey {
  /// The longest key or path, in UTF-8 bytes.
  static let maximumUTF8Count = 768

  /// Returns a key after checking that it may name a child: not empty, at most 768 UTF-8 bytes,
  /// none of `.` `$` `#` `[` `]` `/` and no ASCII control character (U+0000–U+001F, U+007F).
  ///
  /// - Throws: ``WebcomError`` with code `invalidKey`, naming the key and the reason.
  static func validated(_ string: String) throws(WebcomError) -> WebcomKey {
    if let reason = invalidityReason(of: string.utf8) {
      throw WebcomError(.invalidKey, "the key \(quoted(string)) is invalid: \(reason)")
    }
    return WebcomKey(string)
  }

  /// Why `utf8` cannot be a child key, or `nil` when it can.
  static func invalidityReason(of utf8: some Collection<UInt8>) -> String? {
    if utf8.isEmpty { return "a key may not be empty" }
    for byte in utf8 {
      switch byte {
      case 0x00...0x1F, 0x7F:
        let hex = String(byte, radix: 16, uppercase: true)
        let code = String(repeating: "0", count: 4 - hex.count) + hex
        return "it contains the forbidden control character U+\(code)"
      case UInt8(ascii: "."), UInt8(ascii: "$"), UInt8(ascii: "#"), UInt8(ascii: "["),
        UInt8(ascii: "]"), UInt8(ascii: "/"):
        return "it contains the forbidden character \"\(Character(UnicodeScalar(byte)))\""
      default:
        continue
      }
    }
    if utf8.count > maximumUTF8Count {
      return "it is \(utf8.count) UTF-8 bytes long, more than the limit of \(maximumUTF8Count)"
    }
    return nil
  }

  /// `string` between double quotes, with control characters escaped, for messages.
  static func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      if scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" {
        result += scalar.escaped(asASCII: true)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
