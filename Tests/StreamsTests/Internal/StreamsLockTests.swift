import Foundation
import Testing

@testable import Streams

@Suite struct StreamsLockTests {
  @Test func copiesShareOneLockThatCountsEveryIncrementUnderContention() throws {
    final class Counter: @unchecked Sendable {
      // `@unchecked Sendable`: `count` is only touched inside `withLock` of a copy of `lock`.
      let lock = StreamsLock()
      var count = 0
    }
    let counter = Counter()
    let threads = 8
    let group = DispatchGroup()
    for _ in 0..<threads {
      group.enter()
      Thread.detachNewThread {
        let copy = counter.lock
        for _ in 0..<5_000 { copy.withLock { for _ in 0..<20 { counter.count += 1 } } }
        group.leave()
      }
    }
    try #require(group.wait(timeout: .now() + 60) == .success)
    #expect(counter.lock.withLock { counter.count } == threads * 5_000 * 20)
  }
}
