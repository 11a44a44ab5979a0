import Foundation

/// The number of connections a server loop has open, published by the loop thread for other
/// threads to wait on.
final class OpenConnectionGauge: @unchecked Sendable {
  /// Protects `count`; signalled on each change.
  private let condition = NSCondition()
  private var count = 0

  /// Publishes the loop's count (called by the loop thread when a connection opens or closes).
  func publish(_ count: Int) {
    condition.withLock {
      self.count = count
      condition.broadcast()
    }
  }

  /// Waits until at most `limit` connections are open, or the deadline passes; returns whether
  /// the count fell that low.
  func wait(untilAtMost limit: Int, deadline: Date) -> Bool {
    condition.withLock {
      while count > limit {
        if !condition.wait(until: deadline) { return count <= limit }
      }
      return true
    }
  }
}
