import Foundation

/// The key of a node in a Datasync tree: the last segment of its path.
///
/// Keys are ordered as children are ordered everywhere in Datasync (events, previous child keys,
/// children constraints, arrays): keys that are decimal integers (an optional `-` then digits,
/// fitting in `Int64`) come first, in numeric order, equal numbers with fewer leading zeros
/// first; then all other keys in lexicographic order of their UTF-8 bytes:
///
/// ```swift
/// let keys: [WebcomKey] = ["bb", "1000", "b", "01", "aa", "001", "0"]
/// keys.sorted()  // 0, 01, 001, 1000, aa, b, bb
/// ```
///
/// Equality is byte equality of the UTF-8 forms (two canonically equivalent but differently
/// encoded strings are different keys). ``init(_:)`` does not validate; the database does when
/// the key is used in a path.
public struct WebcomKey: Sendable {
  /// The key as a string.
  public let value: String
  /// For an integer key, its value mapped to an order-preserving `UInt64`; otherwise the first
  /// eight UTF-8 bytes, big-endian, padded with zeros.
  @usableFromInline let orderPrefix: UInt64
  /// Bit 31 set for an integer key; the low 31 bits hold the UTF-8 length (saturated).
  @usableFromInline let shape: UInt32

  @usableFromInline static let integerFlag: UInt32 = 1 << 31

  /// Creates a key from a string, without validation.
  ///
  /// - Parameter value: The key; `""` is the key of the root.
  public init(_ value: String) {
    let classified = value.utf8.withContiguousStorageIfAvailable(WebcomKey.classify)
    self.value = value
    (orderPrefix, shape) =
      classified ?? ContiguousArray(value.utf8).withUnsafeBufferPointer(WebcomKey.classify)
  }

  /// Creates a key from a string and its UTF-8 bytes, without validation.
  init(_ value: String, utf8: UnsafeBufferPointer<UInt8>) {
    self.value = value
    (orderPrefix, shape) = WebcomKey.classify(utf8)
  }

  /// Rebuilds a key from its string and the order prefix and shape computed for it before, as a
  /// node that stores the key in parts keeps them.
  init(_ value: String, orderPrefix: UInt64, shape: UInt32) {
    self.value = value
    self.orderPrefix = orderPrefix
    self.shape = shape
  }

  /// Computes the order prefix and the shape of a key from its UTF-8 bytes.
  ///
  /// Only a key that starts with `-` or a digit is read as an integer; the prefix of a key of
  /// eight bytes or more is one big-endian load.
  private static func classify(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt32) {
    let count = utf8.count
    guard count > 0, let base = utf8.baseAddress else { return (0, 0) }
    let length = UInt32(min(count, Int(integerFlag - 1)))
    let first = base.pointee
    if first == UInt8(ascii: "-") || first &- UInt8(ascii: "0") < 10,
      let integer = integerValue(of: utf8)
    {
      return (UInt64(bitPattern: integer) ^ (1 << 63), length | integerFlag)
    }
    if count >= 8 {
      return (UInt64(bigEndian: UnsafeRawPointer(base).loadUnaligned(as: UInt64.self)), length)
    }
    var prefix: UInt64 = 0
    for index in 0..<count {
      prefix = prefix << 8 | UInt64(base[index])
    }
    return (prefix << (8 * UInt64(8 - count)), length)
  }

  /// The date encoded in a push identifier (the key given by `DatasyncNode.createChild()`), or
  /// `nil` when this key is not a push identifier.
  public var date: Date? {
    PushIdentifierGenerator.timestamp(of: self).map {
      Date(timeIntervalSince1970: Double($0) / 1000)
    }
  }

  /// Whether this key is a decimal integer (an optional `-` then digits, fitting in `Int64`).
  var isInteger: Bool { shape & WebcomKey.integerFlag != 0 }

  /// The numeric value of an integer key, `nil` for other keys.
  var integerValue: Int64? {
    isInteger ? Int64(bitPattern: orderPrefix ^ (1 << 63)) : nil
  }

  /// The number of UTF-8 bytes of the key.
  var utf8Count: Int { Int(shape & ~WebcomKey.integerFlag) }

  /// The value of `utf8` read as a decimal integer fitting in `Int64`, or `nil`.
  private static func integerValue(of utf8: UnsafeBufferPointer<UInt8>) -> Int64? {
    var index = utf8.startIndex
    guard index != utf8.endIndex else { return nil }
    let negative = utf8[index] == UInt8(ascii: "-")
    if negative { utf8.formIndex(after: &index) }
    guard index != utf8.endIndex else { return nil }
    var magnitude: UInt64 = 0
    while index != utf8.endIndex {
      let digit = utf8[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
      guard !overflow1, !overflow2 else { return nil }
      magnitude = sum
      utf8.formIndex(after: &index)
    }
    if negative {
      guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
      return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
    }
    guard magnitude <= UInt64(Int64.max) else { return nil }
    return Int64(magnitude)
  }

  /// Three-way comparison in key order: negative, zero or positive.
  @inlinable @inline(__always)
  package static func order(_ lhs: WebcomKey, _ rhs: WebcomKey) -> Int {
    order(
      lhs.value, shape: lhs.shape, orderPrefix: lhs.orderPrefix,
      rhs.value, shape: rhs.shape, orderPrefix: rhs.orderPrefix)
  }

  /// Three-way comparison in key order of two keys given in parts, for keys stored in parts
  /// (see ``JSONObjectNode``): compares without rebuilding them.
  @inlinable @inline(__always)
  static func order(
    _ lhs: String, shape lhsShape: UInt32, orderPrefix lhsPrefix: UInt64,
    _ rhs: String, shape rhsShape: UInt32, orderPrefix rhsPrefix: UInt64
  ) -> Int {
    let lhsInteger = lhsShape & integerFlag
    let rhsInteger = rhsShape & integerFlag
    if lhsInteger != rhsInteger { return lhsInteger != 0 ? -1 : 1 }
    if lhsPrefix != rhsPrefix { return lhsPrefix < rhsPrefix ? -1 : 1 }
    if lhsInteger != 0 {
      if lhsShape != rhsShape { return lhsShape < rhsShape ? -1 : 1 }
    } else if lhsShape == rhsShape && lhsShape <= 8 {
      return 0
    }
    return compareUTF8(lhs, rhs)
  }

  /// Three-way comparison of the UTF-8 bytes of two strings.
  @usableFromInline @inline(never)
  static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
    let fast = lhs.utf8.withContiguousStorageIfAvailable { lhsBytes in
      rhs.utf8.withContiguousStorageIfAvailable { rhsBytes in
        let common = min(lhsBytes.count, rhsBytes.count)
        if common > 0 {
          let result = memcmp(lhsBytes.baseAddress!, rhsBytes.baseAddress!, common)
          if result != 0 { return result < 0 ? -1 : 1 }
        }
        return lhsBytes.count == rhsBytes.count ? 0 : (lhsBytes.count < rhsBytes.count ? -1 : 1)
      }
    }
    if let fast, let result = fast { return result }
    var lhsIterator = lhs.utf8.makeIterator()
    var rhsIterator = rhs.utf8.makeIterator()
    while true {
      switch (lhsIterator.next(), rhsIterator.next()) {
      case (nil, nil): return 0
      case (nil, _): return -1
      case (_, nil): return 1
      case (let lhsByte?, let rhsByte?) where lhsByte != rhsByte: return lhsByte < rhsByte ? -1 : 1
      default: continue
      }
    }
  }
}

extension WebcomKey: Comparable {
  /// Whether `lhs` comes before `rhs` in key order.
  @inlinable @inline(__always)
  public static func < (lhs: WebcomKey, rhs: WebcomKey) -> Bool {
    order(lhs, rhs) < 0
  }

  /// Whether two keys have the same UTF-8 bytes.
  @inlinable @inline(__always)
  public static func == (lhs: WebcomKey, rhs: WebcomKey) -> Bool {
    lhs.shape == rhs.shape && lhs.orderPrefix == rhs.orderPrefix
      && (lhs.shape <= 8 || compareUTF8(lhs.value, rhs.value) == 0)
  }
}

extension WebcomKey: Hashable {
  /// Hashes the UTF-8 bytes of the key.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(shape)
    hasher.combine(orderPrefix)
    if utf8Count > 8 {
      let hashed: Void? = value.utf8.withContiguousStorageIfAvailable { bytes in
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
      }
      if hashed == nil {
        for byte in value.utf8 { hasher.combine(byte) }
      }
    }
  }
}

extension WebcomKey: ExpressibleByStringLiteral {
  /// Creates a key from a string literal, without validation.
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension WebcomKey: CustomStringConvertible {
  /// The key as a string.
  public var description: String { value }
}

extension WebcomKey: Codable {
  /// Decodes a key from a string.
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(String.self))
  }

  /// Encodes the key as a string.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension WebcomKey: CodingKeyRepresentable {
  private struct Key: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
      self.stringValue = stringValue
    }

    init?(intValue: Int) {
      nil
    }
  }

  /// The key as a coding key, so that `[WebcomKey: T]` encodes as a JSON object.
  public var codingKey: any CodingKey { Key(stringValue: value) }

  /// The key named by a coding key.
  public init?<T: CodingKey>(codingKey: T) {
    self.init(codingKey.stringValue)
  }
}

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
