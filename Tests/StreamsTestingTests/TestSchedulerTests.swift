import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct TestSchedulerTests {
  @Test func startsAtZeroAndAdvances() {
    let scheduler = TestScheduler()
    #expect(scheduler.now == TestScheduler.SchedulerTimeType(0))
    scheduler.advance(by: .milliseconds(5))
    #expect(scheduler.now.nanoseconds == 5_000_000)
    scheduler.advance(to: TestScheduler.SchedulerTimeType(7_000_000))
    #expect(scheduler.now.nanoseconds == 7_000_000)
  }

  @Test func strideUnits() {
    typealias Stride = TestScheduler.SchedulerTimeType.Stride
    #expect(Stride.seconds(2).nanoseconds == 2_000_000_000)
    #expect(Stride.seconds(0.5).nanoseconds == 500_000_000)
    #expect(Stride.milliseconds(3).nanoseconds == 3_000_000)
    #expect(Stride.microseconds(4).nanoseconds == 4_000)
    #expect(Stride.nanoseconds(9).nanoseconds == 9)
  }

  @Test func virtualTimeArithmeticSaturates() {
    typealias Stride = TestScheduler.SchedulerTimeType.Stride
    #expect(Stride.nanoseconds(.max) + 1 == .nanoseconds(.max))
    #expect(Stride.nanoseconds(.min) - 1 == .nanoseconds(.min))
    let latest = TestScheduler.SchedulerTimeType(.max)
    let earliest = TestScheduler.SchedulerTimeType(.min)
    #expect(latest.advanced(by: 1) == latest)
    #expect(earliest.distance(to: latest) == .nanoseconds(.max))
    #expect(latest.distance(to: earliest) == .nanoseconds(.min))
    #expect(earliest < latest)
  }

  @Test func repeatingActionStopsAtTheEndOfVirtualTime() {
    let scheduler = TestScheduler()
    let log = Log()
    let cancellable = scheduler.schedule(after: .init(.max - 1), interval: .seconds(1)) {
      log.append(1)
    }
    scheduler.advance(to: .init(.max))
    #expect(log.items == [1, 1])
    #expect(scheduler.pendingActionCount == 0)
    cancellable.cancel()
  }

  @Test func sameInstantRunsInSchedulingOrder() {
    let scheduler = TestScheduler()
    let log = Log()
    let at = scheduler.now.advanced(by: .seconds(1))
    for index in 0..<50 {
      scheduler.schedule(after: at) { log.append(index) }
    }
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1))) { log.append(-1) }
    scheduler.advance(by: .seconds(1))
    #expect(log.items == [-1] + Array(0..<50))
  }

  @Test func actionScheduledForNowByAnActionRunsInSameAdvance() {
    let scheduler = TestScheduler()
    let log = Log()
    scheduler.schedule {
      log.append(1)
      scheduler.schedule { log.append(3) }
    }
    scheduler.schedule { log.append(2) }
    #expect(log.items.isEmpty)
    scheduler.advance()
    #expect(log.items == [1, 2, 3])
  }

  @Test func heapOrdersManyActionsByTime() {
    let scheduler = TestScheduler()
    let log = Log()
    var generator = SystemRandomNumberGenerator()
    var expected: [(Int, Int)] = []
    for index in 0..<5_000 {
      let time = Int.random(in: 0..<1_000, using: &generator)
      expected.append((time, index))
      scheduler.schedule(after: .init(time)) { log.append(index) }
    }
    #expect(scheduler.pendingActionCount == 5_000)
    scheduler.run()
    let order = expected.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
    #expect(log.items == order)
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func pastDateRunsAtCurrentTime() {
    let scheduler = TestScheduler()
    scheduler.advance(by: .seconds(5))
    let log = Log()
    scheduler.schedule(after: .init(0)) { log.append(scheduler.now.nanoseconds) }
    scheduler.advance()
    #expect(log.items == [5_000_000_000])
  }

  @Test func repeatingActionFiresEveryIntervalUntilCancelled() {
    let scheduler = TestScheduler()
    let log = Log()
    let cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { log.append(scheduler.now.nanoseconds / 1_000_000_000) }
    scheduler.advance(by: .seconds(3))
    #expect(log.items == [1, 2, 3])
    cancellable.cancel()
    scheduler.advance(by: .seconds(3))
    #expect(log.items == [1, 2, 3])
  }

  @Test func runStopsWhenOnlyRepeatingActionsRemain() {
    let scheduler = TestScheduler()
    let log = Log()
    let cancellable = scheduler.schedule(
      after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)
    ) { log.append(0) }
    scheduler.schedule(after: .init(2_500_000_000)) { log.append(1) }
    scheduler.run()
    #expect(log.items == [0, 0, 1])
    #expect(scheduler.now.nanoseconds == 2_500_000_000)
    cancellable.cancel()
  }

  @Test func advanceToThePastKeepsTheClock() {
    let scheduler = TestScheduler()
    scheduler.advance(by: .seconds(2))
    scheduler.advance(to: .init(1))
    #expect(scheduler.now.nanoseconds == 2_000_000_000)
  }

  @Test func schedulingFromManyThreadsLosesNothing() {
    let scheduler = TestScheduler()
    let log = Log()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<200 {
        scheduler.schedule(after: .init(index)) { log.append(thread) }
      }
    }
    scheduler.run()
    #expect(log.items.count == 1_600)
  }
}

/// A thread-safe list of integers for ordering assertions.
final class Log: @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`.
  private var storage: [Int] = []

  func append(_ value: Int) { lock.withLock { storage.append(value) } }
  var items: [Int] { lock.withLock { storage } }
}
