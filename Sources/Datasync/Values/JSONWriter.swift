/// Writes the value model as compact UTF-8 JSON text.
///
/// Objects are written in key order; objects that store arrays (see
/// ``JSONValue/arrayElements``) are written as arrays with null in the gaps; floating numbers
/// use the shortest text that reads back to the same `Double` and always keep a fraction or an
/// exponent, so they read back as floating numbers.
struct JSONWriter {
  private(set) var bytes: [UInt8] = []

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
        for (position, element) in elements.enumerated() {
          if position > 0 { bytes.append(UInt8(ascii: ",")) }
          write(element)
        }
        bytes.append(UInt8(ascii: "]"))
      } else {
        bytes.append(UInt8(ascii: "{"))
        var isFirst = true
        for (key, child) in object {
          if !isFirst { bytes.append(UInt8(ascii: ",")) }
          isFirst = false
          write(key.value)
          bytes.append(UInt8(ascii: ":"))
          write(child)
        }
        bytes.append(UInt8(ascii: "}"))
      }
    }
  }

  private mutating func append(_ literal: StaticString) {
    bytes.append(
      contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
  }

  private static let hexDigits = Array("0123456789abcdef".utf8)

  private mutating func write(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
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
