import Foundation

/// How a remote back end waits before each attempt to reconnect: capped exponential backoff
/// with jitter.
///
/// After the `n`th failed attempt in a row (`n` ≥ 1) the base delay is
/// `initialDelay × multiplier^(n-1)`, capped at `maximumDelay`; the delay is the base minus a
/// random share of it, up to `jitter` (0: always the base; 0.5: between half the base and the
/// base), so that clients cut off together do not come back together. The count restarts once
/// a connection succeeds.
///
/// ```swift
/// var options = RemoteOptions()
/// options.reconnection = RemoteReconnectionPolicy(initialDelay: 0.2, maximumDelay: 10)
/// ```
public struct RemoteReconnectionPolicy: Sendable, Equatable {
  /// The base delay after the first failure, in seconds (at least 0).
  public var initialDelay: TimeInterval
  /// The longest base delay, in seconds.
  public var maximumDelay: TimeInterval
  /// How much the base delay grows after each further failure (at least 1).
  public var multiplier: Double
  /// The largest share of the base delay that jitter removes, in `0...1`.
  public var jitter: Double

  /// Creates a policy; out-of-range arguments are clamped (negative delays to 0, a multiplier
  /// below 1 to 1, jitter into `0...1`, a maximum below the initial delay to the initial delay).
  public init(
    initialDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 30, multiplier: Double = 2,
    jitter: Double = 0.5
  ) {
    self.initialDelay = max(0, initialDelay)
    self.maximumDelay = max(self.initialDelay, maximumDelay)
    self.multiplier = max(1, multiplier)
    self.jitter = min(1, max(0, jitter))
  }

  /// The delay before the next attempt after `failures` failed attempts in a row (0 before the
  /// first failure), with `random` drawn uniformly in `0..<1`.
  public func delay(afterFailures failures: Int, random: Double) -> TimeInterval {
    guard failures > 0 else { return 0 }
    var base = initialDelay
    for _ in 1..<min(failures, 64) where base < maximumDelay {
      base *= multiplier
    }
    base = min(base, maximumDelay)
    return base * (1 - jitter * min(1, max(0, random)))
  }
}
