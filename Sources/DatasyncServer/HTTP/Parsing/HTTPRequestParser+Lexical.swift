extension HTTPRequestParser {
  // MARK: - Lexical rules

  enum FieldParse {
    case success((name: String, value: String))
    case failure(String)
  }

  /// Parses `name: value` (a header or a trailer line).
  static func parseField(_ line: ArraySlice<UInt8>) -> FieldParse {
    guard let first = line.first, first != 0x20, first != 0x09 else {
      return .failure("the header line \(quoted(line)) is folded or empty")
    }
    guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
      return .failure("the header line \(quoted(line)) has no colon")
    }
    let name = line[..<colon]
    guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
      return .failure("the header name \(quoted(name)) is not a token")
    }
    let value = line[(colon + 1)...].drop { $0 == 0x20 || $0 == 0x09 }
    let trimmed = value.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
    guard trimmed.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
      return .failure(
        "the value of the header \(quoted(name)) contains a control character")
    }
    return .success(
      (String(decoding: name, as: UTF8.self), String(decoding: trimmed, as: UTF8.self)))
  }

  struct Target {
    var rawPath: String
    var path: String
    var rawQuery: String?
    var queryItems: [HTTPQueryItem]
  }

  enum TargetParse {
    case success(Target)
    case failure(String)
  }

  /// Splits and decodes an origin-form (`/p?q`), absolute-form (`http://h/p?q`) or asterisk
  /// (`OPTIONS *`) target.
  static func parseTarget(_ target: ArraySlice<UInt8>, method: String) -> TargetParse {
    let shown = quoted(target)
    guard !target.isEmpty, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
      return .failure("the request target \(shown) is empty or holds spaces or non-ASCII bytes")
    }
    if target.elementsEqual("*".utf8) {
      guard method == "OPTIONS" else {
        return .failure("the target * is only valid for OPTIONS")
      }
      return .success(Target(rawPath: "*", path: "*", rawQuery: nil, queryItems: []))
    }
    var pathAndQuery = target
    if target.first != UInt8(ascii: "/") {
      let lowered = String(decoding: target.prefix(8), as: UTF8.self).lowercased()
      let scheme =
        lowered.hasPrefix("http://") ? 7 : lowered.hasPrefix("https://") ? 8 : 0
      guard scheme > 0 else {
        return .failure("the request target \(shown) is neither a path nor an http URL")
      }
      let afterScheme = target.dropFirst(scheme)
      let pathStart =
        afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }
        ?? target.endIndex
      pathAndQuery = target[pathStart...]
    }
    let questionMark = pathAndQuery.firstIndex(of: UInt8(ascii: "?"))
    var rawPath = pathAndQuery[..<(questionMark ?? pathAndQuery.endIndex)]
    if rawPath.isEmpty { rawPath = "/".utf8.map { $0 }[...] }
    guard let path = PercentDecoding.decode(rawPath, plusIsSpace: false) else {
      return .failure("the path \(quoted(rawPath)) has a malformed %-escape or is not UTF-8")
    }
    var rawQuery: String?
    var items: [HTTPQueryItem] = []
    if let questionMark {
      let query = pathAndQuery[(questionMark + 1)...]
      rawQuery = String(decoding: query, as: UTF8.self)
      for parameter in query.split(separator: UInt8(ascii: "&")) {
        let equals = parameter.firstIndex(of: UInt8(ascii: "="))
        let rawName = parameter[..<(equals ?? parameter.endIndex)]
        let rawValue = equals.map { parameter[($0 + 1)...] } ?? []
        guard let name = PercentDecoding.decode(rawName, plusIsSpace: true),
          let value = PercentDecoding.decode(rawValue, plusIsSpace: true)
        else {
          return .failure(
            "the query parameter \(quoted(parameter)) has a malformed %-escape or is not UTF-8")
        }
        items.append(HTTPQueryItem(name: name, value: value))
      }
    }
    return .success(
      Target(
        rawPath: String(decoding: rawPath, as: UTF8.self), path: path, rawQuery: rawQuery,
        queryItems: items))
  }

  /// `HTTP/x.y` as its two digits.
  static func parseVersion(_ bytes: ArraySlice<UInt8>) -> (Int, Int)? {
    let text = Array(bytes)
    guard text.count == 8, text[..<5].elementsEqual("HTTP/".utf8), text[6] == UInt8(ascii: "."),
      (0x30...0x39).contains(text[5]), (0x30...0x39).contains(text[7])
    else { return nil }
    return (Int(text[5] - 0x30), Int(text[7] - 0x30))
  }

  /// The lowercased tokens of comma-separated header values.
  static func tokens(_ values: [String]) -> [String] {
    values.flatMap { $0.split(separator: ",") }.map {
      $0.trimmingCharacters(in: [" ", "\t"]).lowercased()
    }.filter { !$0.isEmpty }
  }

  /// `tchar` of RFC 9110: letters, digits and ``!#$%&'*+-.^_`|~``.
  static func isTokenCharacter(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    default:
      return "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
  }

  /// Bytes shown in a message: quoted, at most 64 characters, control bytes escaped.
  static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
    var text = ""
    for byte in bytes.prefix(64) {
      switch byte {
      case 0x20..<0x7F where byte != UInt8(ascii: "\""): text.unicodeScalars.append(.init(byte))
      default: text += "\\x" + (byte < 16 ? "0" : "") + String(byte, radix: 16)
      }
    }
    return "\"" + text + (bytes.count > 64 ? "…" : "") + "\""
  }
}
