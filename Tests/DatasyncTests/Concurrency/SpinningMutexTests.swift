import Dispatch
import Testing

@testable import Datasync

@Suite struct SpinningMutexTests {
  /// A box whose count only changes with the mutex held.
  private final class Counter: @unchecked Sendable {
    // `mutex` protects `count`.
    let mutex = SpinningMutex()
    var count = 0
  }

  /// Eight threads take turns on the lock 20,000 times each: no increment is lost, and no two
  /// threads are ever inside at once.
  @Test func excludesEveryOtherThreadAndLosesNoUpdate() {
    let counter = Counter()
    let inside = Counter()
    let overlaps = Counter()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<20_000 {
        counter.mutex.withLock {
          inside.count += 1
          if inside.count != 1 { overlaps.mutex.withLock { overlaps.count += 1 } }
          counter.count += 1
          inside.count -= 1
        }
      }
    }
    #expect(counter.count == 160_000)
    #expect(overlaps.mutex.withLock { overlaps.count } == 0)
  }

  @Test func returnsAndRethrowsWhatTheBodyDoes() {
    struct Failure: Error {}
    let mutex = SpinningMutex()
    #expect(mutex.withLock { 42 } == 42)
    #expect(throws: Failure.self) { try mutex.withLock { throw Failure() } }
    // The lock was released by the throw: it can be taken again.
    #expect(mutex.withLock { true })
  }
}
