import Foundation

extension EmbeddedConnection {
  /// The delay added to each request and each message: uniform in `minimum...maximum`, drawn
  /// from a generator seeded with `seed`.
  struct Latency: Sendable {
    var minimum: TimeInterval
    var maximum: TimeInterval
    var seed: UInt64

    init(minimum: TimeInterval = 0, maximum: TimeInterval, seed: UInt64 = 0) {
      self.minimum = min(minimum, maximum)
      self.maximum = maximum
      self.seed = seed
    }
  }
}
