/// Decoding of `%XX` escapes in a request target.
enum PercentDecoding {
  /// Decodes `bytes`; in a query (`plusIsSpace`), `+` stands for a space.
  ///
  /// - Returns: The decoded text, or nil when an escape is malformed or the result is not
  ///   valid UTF-8.
  static func decode(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
    guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == 0x2B) })
    else { return String(decoding: bytes, as: UTF8.self) }
    var decoded: [UInt8] = []
    decoded.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index != bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        let high = bytes.index(after: index)
        guard high != bytes.endIndex else { return nil }
        let low = bytes.index(after: high)
        guard low != bytes.endIndex, let a = hexValue(bytes[high]), let b = hexValue(bytes[low])
        else { return nil }
        decoded.append(a << 4 | b)
        index = bytes.index(after: low)
      } else {
        decoded.append(plusIsSpace && byte == 0x2B ? 0x20 : byte)
        index = bytes.index(after: index)
      }
    }
    return String(validating: decoded, as: UTF8.self)
  }

  /// The value of a hexadecimal digit, nil for another byte.
  static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
