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
///
/// A key that is not an integer keeps its first eight UTF-8 bytes in a word and, when the rest
/// takes at most 15 bytes and starts a character, the rest alone in a string that Swift stores
/// in place: a push identifier (20 bytes) holds no memory elsewhere, so copying it retains
/// nothing and comparing it reads nothing elsewhere. ``value`` makes the string of such a key at
/// each use. When that rest is ASCII, as in a push identifier, two such rests compare as
/// strings, which Swift does fastest (for ASCII, the order of strings is that of their bytes).
public struct WebcomKey: Sendable {
  /// The UTF-8 bytes after the eighth when the key is split (see ``isSplit``; empty for a key of
  /// at most eight bytes), the whole key otherwise.
  @usableFromInline let rest: String
  /// For an integer key, its value mapped to an order-preserving `UInt64`; otherwise the first
  /// eight UTF-8 bytes, big-endian, padded with zeros.
  @usableFromInline let orderPrefix: UInt64
  /// Bit 31 set for an integer key, bit 30 for a split key whose rest is ASCII (see
  /// ``asciiRestFlag``); the low 30 bits hold the UTF-8 length (saturated).
  @usableFromInline let shape: UInt32

  @usableFromInline static let integerFlag: UInt32 = 1 << 31
  /// Set in the shape of a split key longer than eight bytes whose rest is ASCII: such rests
  /// compare as strings. Never set for a key of at most eight bytes, whose shape is its length.
  @usableFromInline static let asciiRestFlag: UInt32 = 1 << 30
  /// The bits of a shape that hold the UTF-8 length.
  static let lengthMask: UInt32 = asciiRestFlag - 1

  /// The longest key whose bytes after the eighth are stored in place: a string of at most 15
  /// UTF-8 bytes takes no memory elsewhere.
  private static let longestSplitCount = 8 + 15

  /// Creates a key from a string, without validation.
  ///
  /// - Parameter value: The key; `""` is the key of the root.
  public init(_ value: String) {
    var string = value
    self = string.withUTF8 { WebcomKey(value, utf8: $0) }
  }

  /// Creates a key from its UTF-8 bytes, which must be valid UTF-8, without validation; a
  /// string of the whole key is made only when the key cannot be split.
  init(utf8: UnsafeBufferPointer<UInt8>) {
    self.init(nil, utf8: utf8)
  }

  /// Creates a key from a string and its UTF-8 bytes, without validation.
  init(_ value: String, utf8: UnsafeBufferPointer<UInt8>) {
    self.init(Optional(value), utf8: utf8)
  }

  /// Rebuilds a key from the parts computed for it before, as a node that stores the key in
  /// parts keeps them.
  init(rest: String, orderPrefix: UInt64, shape: UInt32) {
    self.rest = rest
    self.orderPrefix = orderPrefix
    self.shape = shape
  }

  private init(_ value: String?, utf8: UnsafeBufferPointer<UInt8>) {
    let (orderPrefix, length) = WebcomKey.classify(utf8)
    self.orderPrefix = orderPrefix
    let count = utf8.count
    let splits =
      length & WebcomKey.integerFlag == 0 && count <= WebcomKey.longestSplitCount
      && (count <= 8 || utf8[8] & 0xC0 != 0x80)
    if splits && count > 8 {
      let restBytes = UnsafeBufferPointer(rebasing: utf8[8...])
      rest = String(decoding: restBytes, as: UTF8.self)
      shape = restBytes.allSatisfy { $0 < 0x80 } ? length | WebcomKey.asciiRestFlag : length
    } else {
      rest = splits ? "" : value ?? String(decoding: utf8, as: UTF8.self)
      shape = length
    }
  }

  /// Computes the order prefix and the shape of a key from its UTF-8 bytes, but for
  /// ``asciiRestFlag``.
  ///
  /// Only a key that starts with `-` or a digit is read as an integer; the prefix of a key of
  /// eight bytes or more is one big-endian load.
  private static func classify(_ utf8: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt32) {
    let count = utf8.count
    guard count > 0, let base = utf8.baseAddress else { return (0, 0) }
    let length = UInt32(min(count, Int(lengthMask)))
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

  /// Whether ``rest`` holds only the bytes after the eighth (the others are in ``orderPrefix``).
  var isSplit: Bool { WebcomKey.isSplit(rest, shape: shape) }

  /// Whether `rest` is the rest of a split key of shape `shape`.
  private static func isSplit(_ rest: String, shape: UInt32) -> Bool {
    rest.utf8.count != utf8Count(of: shape)
  }

  /// The key as a string.
  public var value: String {
    isSplit ? withUTF8 { String(decoding: $0, as: UTF8.self) } : rest
  }

  /// Calls `body` with the UTF-8 bytes of the key, without making its string.
  func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
    try WebcomKey.withUTF8(rest, orderPrefix: orderPrefix, shape: shape, body)
  }

  /// Calls `body` with the UTF-8 bytes of the key of the given parts; those of a split key are
  /// put together on the stack.
  private static func withUTF8<Result>(
    _ rest: String, orderPrefix: UInt64, shape: UInt32,
    _ body: (UnsafeBufferPointer<UInt8>) throws -> Result
  ) rethrows -> Result {
    var rest = rest
    guard isSplit(rest, shape: shape) else { return try rest.withUTF8(body) }
    let count = utf8Count(of: shape)
    return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: longestSplitCount) {
      buffer in
      withUnsafeBytes(of: orderPrefix.bigEndian) { prefix in
        _ = buffer.initialize(fromContentsOf: prefix.prefix(min(count, 8)))
      }
      rest.withUTF8 { bytes in
        _ = UnsafeMutableBufferPointer(rebasing: buffer[8...]).initialize(fromContentsOf: bytes)
      }
      return try body(UnsafeBufferPointer(rebasing: buffer[..<count]))
    }
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
  var utf8Count: Int { WebcomKey.utf8Count(of: shape) }

  /// The number of UTF-8 bytes of a key of shape `shape`.
  private static func utf8Count(of shape: UInt32) -> Int { Int(shape & lengthMask) }

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
      lhs.rest, shape: lhs.shape, orderPrefix: lhs.orderPrefix,
      rhs.rest, shape: rhs.shape, orderPrefix: rhs.orderPrefix)
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
    } else if lhsShape <= 8 && rhsShape <= 8 {
      return lhsShape == rhsShape ? 0 : (lhsShape < rhsShape ? -1 : 1)
    }
    return orderOfRests(lhs, shape: lhsShape, orderPrefix: lhsPrefix, rhs, shape: rhsShape)
  }

  /// The order of two keys given in parts whose prefixes are equal: by the bytes after the
  /// eighth when both keys are split (as strings when both are ASCII; when one key is at most
  /// eight bytes long, its empty rest comes first, as the key is a prefix of the other), by all
  /// of their bytes otherwise.
  @usableFromInline @inline(never)
  static func orderOfRests(
    _ lhs: String, shape lhsShape: UInt32, orderPrefix prefix: UInt64,
    _ rhs: String, shape rhsShape: UInt32
  ) -> Int {
    if lhsShape & rhsShape & asciiRestFlag != 0 {
      return lhs < rhs ? -1 : (lhs == rhs ? 0 : 1)
    }
    if isSplit(lhs, shape: lhsShape) && isSplit(rhs, shape: rhsShape) {
      return compareUTF8(lhs, rhs)
    }
    return withUTF8(lhs, orderPrefix: prefix, shape: lhsShape) { lhsBytes in
      withUTF8(rhs, orderPrefix: prefix, shape: rhsShape) { compareUTF8(lhsBytes, $0) }
    }
  }

  /// Three-way comparison of the UTF-8 bytes of two strings: read in place where the strings
  /// store their bytes contiguously (native and small strings, the rests of keys), else copied
  /// first.
  @usableFromInline @inline(never)
  static func compareUTF8(_ lhs: String, _ rhs: String) -> Int {
    let inPlace = lhs.utf8.withContiguousStorageIfAvailable { lhsBytes in
      rhs.utf8.withContiguousStorageIfAvailable { compareUTF8(lhsBytes, $0) }
    }
    if case let order?? = inPlace { return order }
    var lhs = lhs
    var rhs = rhs
    return lhs.withUTF8 { lhsBytes in rhs.withUTF8 { compareUTF8(lhsBytes, $0) } }
  }

  /// Three-way comparison of two byte sequences.
  private static func compareUTF8(
    _ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>
  ) -> Int {
    let common = min(lhs.count, rhs.count)
    if common > 0 {
      let result = memcmp(lhs.baseAddress!, rhs.baseAddress!, common)
      if result != 0 { return result < 0 ? -1 : 1 }
    }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
  }
}

extension WebcomKey: Comparable {
  /// Whether `lhs` comes before `rhs` in key order.
  @inlinable @inline(__always)
  public static func < (lhs: WebcomKey, rhs: WebcomKey) -> Bool {
    order(lhs, rhs) < 0
  }

  /// Whether two keys have the same UTF-8 bytes. Equal keys are stored alike (both split or
  /// neither, with the same shape), so their rests are equal; ASCII rests compare as strings.
  @inlinable @inline(__always)
  public static func == (lhs: WebcomKey, rhs: WebcomKey) -> Bool {
    lhs.shape == rhs.shape && lhs.orderPrefix == rhs.orderPrefix
      && (lhs.shape <= 8
        || (lhs.shape & asciiRestFlag != 0
          ? lhs.rest == rhs.rest : compareUTF8(lhs.rest, rhs.rest) == 0))
  }
}

extension WebcomKey: Hashable {
  /// Hashes the UTF-8 bytes of the key (equal keys have equal rests).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(shape)
    hasher.combine(orderPrefix)
    if utf8Count > 8 {
      var rest = rest
      rest.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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
