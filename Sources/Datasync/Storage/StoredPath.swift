import Foundation

/// The byte encoding of the paths under which the durable store keeps its leaves.
///
/// A path is the concatenation of the encodings of its keys (the root is empty). The encoding is
/// order-preserving: comparing two encoded paths byte by byte (as SQLite compares blobs) gives
/// the order of the paths key by key in ``WebcomKey`` order, an ancestor before its descendants.
/// It is also prefix-free key by key, so the subtree of a path is exactly the range of encodings
/// that start with its encoding: from its encoding (included) to ``subtreeEnd(of:)`` (excluded).
///
/// A key is encoded as follows; every key encoding ends with the byte `0x00`.
/// - A key that is not an integer (see ``WebcomKey``): its UTF-8 bytes, then `0x00`. Such a key
///   never holds a byte below `0x20`, so it sorts after every integer key, and `0x00` ends it.
/// - An integer key of value `v`: a tag byte and `n` big-endian value bytes. For `v >= 0`, `n` is
///   the number of significant bytes of `v`, the tag is `0x0A + n` and the bytes are the low `n`
///   bytes of `v`. For `v < 0`, `n` is the number of significant bytes of `-1 - v`, the tag is
///   `0x09 - n` and the bytes are the low `n` bytes of `v` in two's complement (larger magnitudes
///   get a smaller tag, then smaller bytes); 0 and -1 have no value byte. Then the key's form:
///   `0x00` for the canonical spelling of `v` (no leading zero, no `-0`), which is the shortest
///   and comes first; otherwise `0x01`, the UTF-8 length on two big-endian bytes, the UTF-8
///   bytes, `0x00` (equal numbers: the shorter spelling first, then by bytes, as ``WebcomKey``
///   orders them).
enum StoredPath {
  /// The byte that ends every key encoding.
  static let terminator: UInt8 = 0x00
  /// The form byte of an integer key that is not spelled canonically.
  private static let spelledForm: UInt8 = 0x01
  /// The tag of the integer zero (no value bytes).
  private static let zeroTag: UInt8 = 0x0A
  /// The smallest byte that may start a key that is not an integer.
  private static let firstTextByte: UInt8 = 0x20

  /// Appends the encoding of `key` to `bytes`.
  ///
  /// - Throws: ``WebcomError`` with code `invalidKey` when the key could not name a child (empty,
  ///   a forbidden character, too long): such a key is never stored.
  static func append(_ key: WebcomKey, to bytes: inout [UInt8]) throws(WebcomError) {
    if let reason = key.withUTF8(WebcomKey.invalidityReason) {
      throw WebcomError(
        .invalidKey, "the key \(WebcomKey.quoted(key.value)) cannot be stored: \(reason)")
    }
    guard let value = key.integerValue else {
      key.withUTF8 { bytes.append(contentsOf: $0) }
      bytes.append(terminator)
      return
    }
    let magnitude = value >= 0 ? UInt64(value) : UInt64(bitPattern: -1 - value)
    let count = significantByteCount(magnitude)
    let stored = value >= 0 ? magnitude : ~magnitude
    bytes.append(value >= 0 ? zeroTag + UInt8(count) : zeroTag - 1 - UInt8(count))
    for index in stride(from: count - 1, through: 0, by: -1) {
      bytes.append(UInt8(truncatingIfNeeded: stored >> (8 * UInt64(index))))
    }
    if key.utf8Count == canonicalLength(of: value) {
      bytes.append(terminator)
    } else {
      bytes.append(spelledForm)
      bytes.append(UInt8(key.utf8Count >> 8))
      bytes.append(UInt8(truncatingIfNeeded: key.utf8Count))
      key.withUTF8 { bytes.append(contentsOf: $0) }
      bytes.append(terminator)
    }
  }

  /// The encoding of a path given by its keys.
  ///
  /// - Throws: ``WebcomError`` with code `invalidKey`, as ``append(_:to:)``.
  static func encoded(_ keys: some Sequence<WebcomKey>) throws(WebcomError) -> [UInt8] {
    var bytes: [UInt8] = []
    for key in keys { try append(key, to: &bytes) }
    return bytes
  }

  /// The first encoding after the subtree of the path encoded as `encoded` (which must not be the
  /// root): its last byte, the terminator of its last key, incremented.
  static func subtreeEnd(of encoded: [UInt8]) -> [UInt8] {
    precondition(encoded.last == terminator, "not the encoding of a path below the root")
    var end = encoded
    end[end.count - 1] = terminator + 1
    return end
  }

  /// Decodes the key whose encoding starts at `offset` in `bytes`: the key and the offset just
  /// after its encoding, or `nil` when the bytes there are not a key encoding that
  /// ``append(_:to:)`` writes.
  static func decodeKey(in bytes: UnsafeRawBufferPointer, at offset: Int) -> (
    key: WebcomKey, end: Int
  )? {
    guard offset < bytes.count else { return nil }
    let tag = bytes[offset]
    if tag >= firstTextByte {
      let start = bytes.baseAddress! + offset
      guard let terminatorAddress = memchr(start, Int32(terminator), bytes.count - offset) else {
        return nil
      }
      let utf8 = UnsafeBufferPointer(
        start: start.assumingMemoryBound(to: UInt8.self),
        count: UnsafeRawPointer(terminatorAddress) - start)
      guard WebcomKey.invalidityReason(of: utf8) == nil,
        let string = String(validatingCString: start.assumingMemoryBound(to: CChar.self))
      else { return nil }
      let key = WebcomKey(string, utf8: utf8)
      return key.isInteger ? nil : (key, offset + utf8.count + 1)
    }
    guard tag > 0, tag <= zeroTag + 8 else { return nil }
    let count = Int(tag >= zeroTag ? tag - zeroTag : zeroTag - 1 - tag)
    var index = offset + 1
    guard index + count < bytes.count else { return nil }
    var stored: UInt64 = 0
    for _ in 0..<count {
      stored = stored << 8 | UInt64(bytes[index])
      index += 1
    }
    let value: Int64
    if tag >= zeroTag {
      guard count == significantByteCount(stored), stored <= UInt64(Int64.max) else { return nil }
      value = Int64(stored)
    } else {
      let magnitude = count == 0 ? 0 : ~stored & (UInt64.max >> (64 - 8 * UInt64(count)))
      guard count == significantByteCount(magnitude), magnitude <= UInt64(Int64.max) else {
        return nil
      }
      value = -1 - Int64(magnitude)
    }
    let form = bytes[index]
    index += 1
    if form == terminator {
      return (WebcomKey(String(value)), index)
    }
    guard form == spelledForm, index + 2 <= bytes.count else { return nil }
    let length = Int(bytes[index]) << 8 | Int(bytes[index + 1])
    index += 2
    guard index + length < bytes.count, bytes[index + length] == terminator else { return nil }
    let utf8 = UnsafeRawBufferPointer(rebasing: bytes[index..<index + length])
      .assumingMemoryBound(to: UInt8.self)
    guard let string = String(validating: utf8, as: UTF8.self) else { return nil }
    let key = WebcomKey(string, utf8: utf8)
    guard key.integerValue == value, length != canonicalLength(of: value) else { return nil }
    return (key, index + length + 1)
  }

  /// The number of bytes needed to hold `magnitude` (0 for zero).
  private static func significantByteCount(_ magnitude: UInt64) -> Int {
    (UInt64.bitWidth - magnitude.leadingZeroBitCount + 7) / 8
  }

  /// The number of UTF-8 bytes of the canonical spelling of `value`.
  private static func canonicalLength(of value: Int64) -> Int {
    var digits = 1
    var rest = value.magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    return value < 0 ? digits + 1 : digits
  }
}

extension StoredPath {
  /// The path encoded as `bytes`, for messages: `/a/b`, or the hexadecimal bytes when they are not
  /// a path encoding.
  static func description(of bytes: UnsafeRawBufferPointer) -> String {
    var keys: [WebcomKey] = []
    var offset = 0
    while offset < bytes.count {
      guard let (key, end) = decodeKey(in: bytes, at: offset) else {
        return "0x" + bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
      }
      keys.append(key)
      offset = end
    }
    return WebcomKey.quoted(keys.isEmpty ? "/" : keys.map { "/" + $0.value }.joined())
  }
}
