import Foundation
import Streams

/// Waits, yielding, until `condition` holds or `timeout` passes; returns whether it held.
func eventually(
  timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool
) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

/// Counts live instances, to check that nothing leaks.
final class LifetimeCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var live = 0

  var count: Int { lock.withLock { live } }
  func increment() { lock.withLock { live += 1 } }
  func decrement() { lock.withLock { live -= 1 } }
}

/// A value whose instances are counted.
final class Tracked: Sendable {
  let id: Int
  let counter: LifetimeCounter

  init(_ id: Int, counter: LifetimeCounter) {
    self.id = id
    self.counter = counter
    counter.increment()
  }

  deinit { counter.decrement() }
}
