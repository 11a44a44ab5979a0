/// Writes the value model as UTF-8 JSON text, compact or pretty.
///
/// Objects are written in key order; objects that store arrays (see
/// ``JSONValue/arrayElements``) are written as arrays with null in the gaps; floating numbers
/// use the shortest text that reads back to the same `Double` and always keep a fraction or an
/// exponent, so they read back as floating numbers. Pretty text puts each member and element on
/// its own line, indented by two spaces per level, with `" : "` between a key and its value (as
/// hosted realtime databases print it).
struct JSONWriter {
  private(set) var bytes: [UInt8] = []
  private let isPretty: Bool
  private var depth = 0

  /// Creates a writer of compact text, or of pretty text when `pretty` is true.
  init(pretty: Bool = false) {
    isPretty = pretty
  }

  mutating func write(_ value: JSONValue) {
    switch value {
    case .null:
      append("null")
    case .bool(let bool):
      append(bool ? "true" : "false")
    case .int(let int):
      bytes.append(contentsOf: String(int).utf8)
    case .double(let double):
      bytes.append(contentsOf: double.description.utf8)
    case .string(let string):
      write(string)
    case .object(let object):
      if let elements = value.arrayElements {
        bytes.append(UInt8(ascii: "["))
        depth += 1
        for (position, element) in elements.enumerated() {
          if position > 0 { bytes.append(UInt8(ascii: ",")) }
          newLine()
          write(element)
        }
        depth -= 1
        newLine()
        bytes.append(UInt8(ascii: "]"))
      } else {
        bytes.append(UInt8(ascii: "{"))
        depth += 1
        var isFirst = true
        for (key, child) in object {
          if !isFirst { bytes.append(UInt8(ascii: ",")) }
          isFirst = false
          newLine()
          key.withUTF8 { writeString($0) }
          if isPretty { append(" : ") } else { bytes.append(UInt8(ascii: ":")) }
          write(child)
        }
        depth -= 1
        newLine()
        bytes.append(UInt8(ascii: "}"))
      }
    }
  }

  /// Writes an object from members as given: keys written as they are (they need not be valid
  /// keys: the `/`-separated paths of a merge), in this order, null values included.
  mutating func writeMembers(_ members: some Sequence<(key: String, value: JSONValue)>) {
    bytes.append(UInt8(ascii: "{"))
    depth += 1
    var isFirst = true
    for (key, value) in members {
      if !isFirst { bytes.append(UInt8(ascii: ",")) }
      isFirst = false
      newLine()
      write(key)
      if isPretty { append(" : ") } else { bytes.append(UInt8(ascii: ":")) }
      write(value)
    }
    depth -= 1
    if !isFirst { newLine() }
    bytes.append(UInt8(ascii: "}"))
  }

  /// In pretty text, a line break and the indentation of the current depth.
  private mutating func newLine() {
    guard isPretty else { return }
    bytes.append(0x0A)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
  }

  private mutating func append(_ literal: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private mutating func write(_ string: String) {
    var string = string
    string.withUTF8 { writeString($0) }
  }

  /// Writes a string given by its UTF-8 bytes, quoted and escaped.
  private mutating func writeString(_ utf8: UnsafeBufferPointer<UInt8>) {
    bytes.append(UInt8(ascii: "\""))
    for byte in utf8 {
      switch byte {
      case UInt8(ascii: "\""): append("\\\"")
      case UInt8(ascii: "\\"): append("\\\\")
      case 0x0A: append("\\n")
      case 0x0D: append("\\r")
      case 0x09: append("\\t")
      case 0x08: append("\\b")
      case 0x0C: append("\\f")
      case 0..<0x20:
        append("\\u00")
        bytes.append(JSONWriter.hexDigits[Int(byte >> 4)])
        bytes.append(JSONWriter.hexDigits[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }
}
