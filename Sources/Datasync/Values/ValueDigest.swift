/// The arithmetic of value digests: 64-bit, deterministic (the same in every process and on
/// every platform, so that a digest survives a restart), fast, and not cryptographic.
///
/// A digest tells versions of a value apart for conditional requests: two different values have
/// the same digest with a probability of about 2⁻⁶⁴. Someone who may write a value could craft a
/// collision, but a conditional write protects nothing against a writer who could as well write
/// unconditionally.
enum ValueDigest {
  /// The digest of the null value.
  static let null: UInt64 = mix(0x6E75_6C6C)

  /// Mixes a 64-bit word into a well-distributed one (the SplitMix64 finaliser).
  @inline(__always)
  static func mix(_ word: UInt64) -> UInt64 {
    var value = word
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  /// The digest of a scalar of a kind (`tag`) with the given 64-bit payload.
  @inline(__always)
  static func scalar(tag: UInt64, _ payload: UInt64) -> UInt64 {
    mix(mix(payload &+ tag &* 0x9E37_79B9_7F4A_7C15) ^ tag)
  }

  /// The digest of a byte string, eight bytes at a time, with its length and a kind tag.
  static func bytes(_ string: String, tag: UInt64) -> UInt64 {
    var string = string
    return string.withUTF8 { digest(of: $0, tag: tag) }
  }

  /// The digest of the UTF-8 bytes of a key (see ``bytes(_:tag:)``).
  static func bytes(_ key: WebcomKey, tag: UInt64) -> UInt64 {
    key.withUTF8 { digest(of: $0, tag: tag) }
  }

  private static func digest(of bytes: UnsafeBufferPointer<UInt8>, tag: UInt64) -> UInt64 {
    var state = mix(UInt64(bytes.count) ^ tag &* 0xD6E8_FEB8_6659_FD93)
    var index = 0
    if let base = bytes.baseAddress {
      while index + 8 <= bytes.count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        state = mix(state ^ UInt64(littleEndian: word))
        index += 8
      }
    }
    var tail: UInt64 = 0
    var shift: UInt64 = 0
    while index < bytes.count {
      tail |= UInt64(bytes[index]) << shift
      shift += 8
      index += 1
    }
    return mix(state ^ tail ^ 0xA076_1D64_78BD_642F)
  }

  /// The digest of one member of an object: its key and its value's digest. Members are summed,
  /// so each is mixed on its own.
  @inline(__always)
  static func entry(key: WebcomKey, valueDigest: UInt64) -> UInt64 {
    mix(bytes(key, tag: 0x6B65_79) &+ mix(valueDigest ^ 0xE703_7ED1_A0B4_28DB))
  }

  /// The digest of an object from the sum of its members' digests and their number.
  @inline(__always)
  static func object(entries: UInt64, count: Int) -> UInt64 {
    mix(entries ^ mix(UInt64(count) &+ 0x8EBC_6AF0_9C88_C6E3))
  }
}

extension JSONValue {
  /// A digest of the value (see ``ValueDigest``): values with the same JSON text (same kinds,
  /// same numbers, same UTF-8 bytes in strings and keys) have the same digest; other values have
  /// different ones, but with a probability of about 2⁻⁶⁴.
  ///
  /// An object's digest comes from digests cached in its immutable nodes, so it costs O(1) once
  /// computed, and after a write only the nodes the write created compute theirs: O(log n) per
  /// written location, never a serialisation of the value.
  var digest: UInt64 {
    switch self {
    case .null: return ValueDigest.null
    case .bool(let bool): return ValueDigest.scalar(tag: 0x626F_6F6C, bool ? 1 : 0)
    case .int(let int): return ValueDigest.scalar(tag: 0x696E_74, UInt64(bitPattern: int))
    case .double(let double): return ValueDigest.scalar(tag: 0x646F_7562, double.bitPattern)
    case .string(let string): return ValueDigest.bytes(string, tag: 0x7374_72)
    case .object(let object):
      guard let root = object.root else { return ValueDigest.null }
      return ValueDigest.object(entries: root.entriesDigest, count: root.count)
    }
  }
}
