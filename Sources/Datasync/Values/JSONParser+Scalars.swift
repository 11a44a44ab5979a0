extension JSONParser {
  mutating func expect(_ literal: StaticString, value: JSONValue) throws(Failure)
    -> JSONValue
  {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { throw malformed("unexpected end") }
    let literalBytes = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
    for offset in 0..<count where bytes[index + offset] != literalBytes[offset] {
      throw malformed("unexpected character")
    }
    index += count
    return value
  }

  mutating func parseNumber() throws(Failure) -> JSONValue {
    let start = index
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let integerStart = index
    while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
    let integerDigits = index - integerStart
    guard integerDigits > 0, bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1
    else { throw malformed("invalid number") }
    var isInteger = true
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      isInteger = false
      index += 1
      let fractionStart = index
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      guard index > fractionStart else { throw malformed("invalid number") }
    }
    if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      isInteger = false
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")
      {
        index += 1
      }
      let exponentStart = index
      while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
      guard index > exponentStart else { throw malformed("invalid number") }
    }
    if isInteger, integerDigits <= 19 {
      var magnitude: UInt64 = 0
      for position in integerStart..<index {
        magnitude = magnitude * 10 + UInt64(bytes[position] - UInt8(ascii: "0"))
      }
      let negative = integerStart != start
      if negative, magnitude <= UInt64(Int64.max) + 1 {
        return .int(magnitude == UInt64(Int64.max) + 1 ? .min : -Int64(magnitude))
      }
      if !negative, magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
    }
    let text = String(
      decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    guard let number = Double(text), number.isFinite else {
      throw Failure(
        code: .invalidValue,
        reason: "the number \(text) is out of the finite range: NaN and infinities cannot be stored"
      )
    }
    return .double(number)
  }

  /// Parses a string; `asciiBytes` is set to its bytes in the text when it is plain ASCII
  /// without escapes (so that keys are classified without reading the string again).
  mutating func parseString() throws(Failure) -> String {
    var asciiBytes: UnsafeBufferPointer<UInt8>?
    return try parseString(asciiBytes: &asciiBytes)
  }

  mutating func parseString(asciiBytes: inout UnsafeBufferPointer<UInt8>?)
    throws(Failure) -> String
  {
    index += 1
    let start = index
    var union: UInt8 = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
        let string = String(decoding: raw, as: UTF8.self)
        if union < 0x80 { asciiBytes = raw.assumingMemoryBound(to: UInt8.self) }
        index += 1
        return string
      }
      union |= byte
      if byte == UInt8(ascii: "\\") { break }
      guard byte >= 0x20 else { throw malformed("control character in a string") }
      index += 1
    }
    var buffer = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        return String(decoding: buffer, as: UTF8.self)
      case UInt8(ascii: "\\"):
        try parseEscape(into: &buffer)
      case 0..<0x20:
        throw malformed("control character in a string")
      default:
        buffer.append(byte)
      }
    }
    throw malformed("unterminated string")
  }

  private mutating func parseEscape(into buffer: inout [UInt8]) throws(Failure) {
    guard index < bytes.count else { throw malformed("unterminated string") }
    let byte = bytes[index]
    index += 1
    if let escaped = JSONEscape.byte(escapedBy: byte) {
      buffer.append(escaped)
      return
    }
    switch byte {
    case UInt8(ascii: "u"):
      var scalar = try parseHex4()
      if scalar >= 0xD800 && scalar < 0xDC00 {
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else { throw malformed("unpaired surrogate") }
        index += 2
        let low = try parseHex4()
        guard low >= 0xDC00 && low < 0xE000 else { throw malformed("unpaired surrogate") }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      } else if scalar >= 0xDC00 && scalar < 0xE000 {
        throw malformed("unpaired surrogate")
      }
      guard let unicodeScalar = Unicode.Scalar(scalar) else { throw malformed("invalid escape") }
      buffer.append(contentsOf: String(Character(unicodeScalar)).utf8)
    default:
      throw malformed("invalid escape")
    }
  }

  private mutating func parseHex4() throws(Failure) -> UInt32 {
    guard index + 4 <= bytes.count else { throw malformed("unterminated escape") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw malformed("invalid escape")
      }
      value = value << 4 | digit
      index += 1
    }
    return value
  }
}
