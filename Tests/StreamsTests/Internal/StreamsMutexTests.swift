import Foundation
import Testing

@testable import Streams

@Suite struct StreamsMutexTests {
  /// A counter that is only read and written while `mutex` is held.
  final class GuardedCounter: @unchecked Sendable {
    // `@unchecked Sendable`: `count` is only touched between `mutex.lock()` and `mutex.unlock()`.
    let mutex = StreamsMutex()
    var count = 0

    /// Adds `steps` one at a time, so that a lock that let two threads in would lose updates.
    func add(_ steps: Int) {
      mutex.lock()
      for _ in 0..<steps { count += 1 }
      mutex.unlock()
    }
  }

  /// Runs `body` on `threads` threads of their own and reports whether all of them returned
  /// within a minute: a lock whose waiters are never woken turns into a failure, not a hang.
  static func runOnThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    for thread in 0..<threads {
      group.enter()
      Thread.detachNewThread {
        body(thread)
        group.leave()
      }
    }
    return group.wait(timeout: .now() + 60) == .success
  }

  @Test func countsEveryIncrementWhenEightThreadsContend() throws {
    let counter = GuardedCounter()
    let finished = Self.runOnThreads(8) { _ in
      for _ in 0..<5_000 { counter.add(20) }
    }
    try #require(finished)
    counter.mutex.lock()
    #expect(counter.count == 8 * 5_000 * 20)
    counter.mutex.unlock()
  }

  #if os(Linux)
    /// The holder keeps the lock until a waiter has marked it contended, so each round hands the
    /// lock over through the waiters' sleep and the holder's wake-up on the lock's own word (a wait
    /// or wake on any other address, such as a temporary copy of the word, would never return).
    @Test func handsTheLockOverToSleepingWaiters() throws {
      for _ in 0..<20 {
        let counter = GuardedCounter()
        counter.mutex.lock()
        let waiters = DispatchGroup()
        for _ in 0..<4 {
          waiters.enter()
          Thread.detachNewThread {
            counter.add(1)
            waiters.leave()
          }
        }
        let giveUp = Date(timeIntervalSinceNow: 60)
        while counter.mutex.word.load(ordering: .relaxed) != StreamsMutex.lockedWithWaiters,
          Date() < giveUp
        {
          sched_yield()
        }
        try #require(counter.mutex.word.load(ordering: .relaxed) == StreamsMutex.lockedWithWaiters)
        counter.mutex.unlock()
        try #require(waiters.wait(timeout: .now() + 60) == .success)
        counter.mutex.lock()
        #expect(counter.count == 4)
        counter.mutex.unlock()
        #expect(counter.mutex.word.load(ordering: .relaxed) == StreamsMutex.unlocked)
      }
    }
  #endif
}
