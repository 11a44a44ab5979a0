import Foundation

/// Generates push identifiers: the keys of children created by `DatasyncNode.createChild()` and
/// `push`.
///
/// A push identifier is 20 characters of the alphabet
/// `-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz` (in ASCII order): 8
/// characters of millisecond timestamp, most significant first, then 12 random characters.
/// Within one millisecond (or when the clock goes back) the previous random part is incremented
/// instead, so the identifiers of one generator are strictly increasing in key order whatever
/// the number per millisecond and the number of threads. When the random part overflows, the
/// timestamp part moves one millisecond forward and a new random part is drawn.
final class PushIdentifierGenerator: @unchecked Sendable {
  /// The generator shared by the whole process.
  static let shared = PushIdentifierGenerator()

  /// The 64 characters, in ASCII order.
  static let alphabet = Array(
    "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

  /// The number of characters of an identifier.
  static let length = 20

  /// The largest value of one 36-bit half of the random part.
  static let maximumRandomHalf: UInt64 = (1 << 36) - 1

  /// The largest timestamp an identifier can hold (64^8 - 1 milliseconds).
  static let maximumTimestamp: Int64 = (1 << 48) - 1

  /// Draws a random part as two 36-bit halves (the high one holds the first 6 characters);
  /// `nil` for the generator's own pseudo-random sequence.
  private let drawRandomPart: (@Sendable () -> (high: UInt64, low: UInt64))?

  /// Protects `lastTimestamp`, `lastHigh`, `lastLow` and `randomState`.
  private let lock = NSLock()
  private var lastTimestamp: Int64 = -1
  private var lastHigh: UInt64 = 0
  private var lastLow: UInt64 = 0
  /// The state of a SplitMix64 sequence seeded from the system's random generator, so that a
  /// new millisecond costs no system call.
  private var randomState: UInt64

  /// Creates a generator.
  ///
  /// - Parameter drawRandomPart: The source of random parts, as two halves of which only the low
  ///   36 bits are used; by default a pseudo-random sequence seeded from the system's random
  ///   generator.
  init(drawRandomPart: (@Sendable () -> (high: UInt64, low: UInt64))? = nil) {
    self.drawRandomPart = drawRandomPart
    var systemGenerator = SystemRandomNumberGenerator()
    randomState = systemGenerator.next()
  }

  /// The next value of the SplitMix64 sequence; call with the lock held.
  private func nextRandom() -> UInt64 {
    randomState &+= 0x9E37_79B9_7F4A_7C15
    var value = randomState
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
  }

  /// Draws a new random part into `lastHigh` and `lastLow`; call with the lock held.
  private func drawNewRandomPart() {
    let maximum = PushIdentifierGenerator.maximumRandomHalf
    if let drawRandomPart {
      (lastHigh, lastLow) = drawRandomPart()
    } else {
      (lastHigh, lastLow) = (nextRandom(), nextRandom())
    }
    lastHigh &= maximum
    lastLow &= maximum
  }

  /// Returns a new push identifier for the given (back-end-adjusted) date.
  ///
  /// - Parameter date: The current date; dates before 1970 count as 1970.
  func next(at date: Date = Date()) -> WebcomKey {
    let milliseconds = date.timeIntervalSince1970 * 1000
    let now =
      milliseconds.isNaN || milliseconds < 0
      ? 0
      : Int64(min(milliseconds.rounded(.down), Double(PushIdentifierGenerator.maximumTimestamp)))
    let maximum = PushIdentifierGenerator.maximumRandomHalf
    lock.lock()
    if now > lastTimestamp {
      lastTimestamp = now
      drawNewRandomPart()
    } else if lastLow < maximum {
      lastLow += 1
    } else if lastHigh < maximum {
      lastLow = 0
      lastHigh += 1
    } else {
      lastTimestamp += 1
      drawNewRandomPart()
    }
    let (timestamp, high, low) = (lastTimestamp, lastHigh, lastLow)
    lock.unlock()
    return PushIdentifierGenerator.identifier(timestamp: timestamp, high: high, low: low)
  }

  /// Spells an identifier: a key stored in place, with no string.
  static func identifier(timestamp: Int64, high: UInt64, low: UInt64) -> WebcomKey {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length) { buffer in
      var value = UInt64(timestamp)
      for index in stride(from: 7, through: 0, by: -1) {
        buffer[index] = alphabet[Int(value & 63)]
        value >>= 6
      }
      var highValue = high
      var lowValue = low
      for index in stride(from: 5, through: 0, by: -1) {
        buffer[8 + index] = alphabet[Int(highValue & 63)]
        buffer[14 + index] = alphabet[Int(lowValue & 63)]
        highValue >>= 6
        lowValue >>= 6
      }
      return WebcomKey(utf8: UnsafeBufferPointer(buffer))
    }
  }

  /// The timestamp, in milliseconds since 1970, of a push identifier, or `nil` when `key` is not
  /// 20 characters of the push identifier alphabet.
  static func timestamp(of key: WebcomKey) -> Int64? {
    guard key.utf8Count == length else { return nil }
    return key.withUTF8 { bytes in
      var timestamp: Int64 = 0
      for (index, byte) in bytes.enumerated() {
        guard let digit = digitValue(byte) else { return nil }
        if index < 8 { timestamp = timestamp << 6 | Int64(digit) }
      }
      return timestamp
    }
  }

  /// The value of one character of the alphabet, or `nil`.
  private static func digitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "-"): 0
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 1
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A") + 11
    case UInt8(ascii: "_"): 37
    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 38
    default: nil
    }
  }
}
