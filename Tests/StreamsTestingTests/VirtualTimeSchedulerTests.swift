import Foundation
import Streams
import StreamsTesting
import Testing

/// The virtual-time scheduler with `DispatchQueue`'s time type, as code written for a
/// `DispatchQueue` meets it.
@Suite struct VirtualTimeSchedulerTests {
  @Test func dispatchQueueTestStartsAtOneNanosecondAndEachUseIsNew() {
    let first = DispatchQueue.test
    let second = DispatchQueue.test
    #expect(first.now.dispatchTime.uptimeNanoseconds == 1)
    first.advance(by: .seconds(1))
    #expect(second.now.dispatchTime.uptimeNanoseconds == 1)
  }

  @Test func debounceOnDispatchQueueTestWaitsForThreeHundredMilliseconds() {
    let scheduler = DispatchQueue.test
    let input = PassthroughSubject<String, Never>()
    let recorder = RecordingSubscriber<String, Never>(clock: scheduler.clock)
    input.debounce(for: .milliseconds(300), scheduler: scheduler).subscribe(recorder)
    input.send("s")
    scheduler.advance(by: .milliseconds(100))
    input.send("sw")
    scheduler.advance(by: .milliseconds(299))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == ["sw"])
    #expect(recorder.timedEvents.last?.time == 1 + 400_000_000)
    scheduler.advance(by: .milliseconds(300))
    #expect(recorder.values == ["sw"])
  }

  @Test func debounceThroughAnySchedulerOfDispatchQueue() {
    let scheduler = DispatchQueue.test
    let erased: AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
    let input = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    input.debounce(for: 0.3, scheduler: erased).subscribe(recorder)
    input.send(1)
    input.send(2)
    scheduler.advance(by: .milliseconds(300))
    #expect(recorder.values == [2])
  }

  @Test func actionsDueAtTheSameInstantRunInSchedulingOrder() {
    let scheduler = DispatchQueue.test
    let log = Log()
    let at = scheduler.now.advanced(by: .seconds(1))
    for index in 0..<50 {
      scheduler.schedule(after: at) { log.append(index) }
    }
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(1))) { log.append(-1) }
    scheduler.schedule(after: at, tolerance: .seconds(5), options: .init(qos: .background)) {
      log.append(50)
    }
    scheduler.advance(by: .seconds(1))
    #expect(log.items == [-1] + Array(0...50))
  }

  @Test func runMovesTheClockToEachActionUntilNoneIsLeft() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Log()
    scheduler.schedule(after: start.advanced(by: .seconds(3))) { log.append(3) }
    scheduler.schedule(after: start.advanced(by: .seconds(1))) {
      log.append(1)
      scheduler.schedule(after: scheduler.now.advanced(by: .seconds(4))) { log.append(5) }
    }
    scheduler.run()
    #expect(log.items == [1, 3, 5])
    #expect(start.distance(to: scheduler.now) == .seconds(5))
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func advanceToRunsWhatIsDueAndNeverMovesTheClockBack() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Log()
    scheduler.schedule(after: start.advanced(by: .seconds(2))) { log.append(2) }
    scheduler.schedule(after: start.advanced(by: .seconds(4))) { log.append(4) }
    scheduler.advance(to: start.advanced(by: .seconds(2)))
    #expect(log.items == [2])
    #expect(scheduler.now == start.advanced(by: .seconds(2)))
    scheduler.advance(to: start)
    #expect(scheduler.now == start.advanced(by: .seconds(2)))
    scheduler.advance(by: .seconds(-1))
    #expect(scheduler.now == start.advanced(by: .seconds(2)))
    #expect(log.items == [2])
  }

  @Test func actionsScheduledByActionsRunWhenTheirTimeIsReached() {
    let scheduler = DispatchQueue.test
    let log = Log()
    scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(10))) {
      log.append(1)
      scheduler.schedule { log.append(2) }
      scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(5))) { log.append(3) }
      scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(50))) { log.append(4) }
    }
    scheduler.advance(by: .milliseconds(20))
    #expect(log.items == [1, 2, 3])
    scheduler.advance(by: .milliseconds(40))
    #expect(log.items == [1, 2, 3, 4])
  }

  @Test func repeatingActionFiresEveryIntervalUntilCancelled() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Log()
    let cancellable = scheduler.schedule(after: start.advanced(by: 0.5), interval: 0.25) {
      log.append(Int(start.distance(to: scheduler.now).magnitude / 1_000_000))
    }
    scheduler.advance(by: 1)
    #expect(log.items == [500, 750, 1_000])
    cancellable.cancel()
    scheduler.advance(by: 1)
    #expect(log.items == [500, 750, 1_000])
    #expect(scheduler.pendingActionCount == 0)
  }

  @Test func repeatingActionCanCancelItself() {
    let scheduler = DispatchQueue.test
    let log = Log()
    let holder = CancellableHolder()
    holder.cancellable = scheduler.schedule(after: scheduler.now, interval: .seconds(1)) {
      log.append(1)
      if log.items.count == 3 { holder.cancellable?.cancel() }
    }
    scheduler.advance(by: .seconds(10))
    #expect(log.items == [1, 1, 1])
  }

  @Test func repeatingActionStopsAtTheEndOfTheClock() {
    let scheduler = DispatchQueue.test
    let never = DispatchQueue.SchedulerTimeType(.distantFuture)
    let log = Log()
    let cancellable = scheduler.schedule(after: never, interval: .seconds(1)) { log.append(1) }
    scheduler.advance(to: never)
    #expect(log.items == [1])
    #expect(scheduler.pendingActionCount == 0)
    cancellable.cancel()
  }

  @Test func delayAndTimeoutRunOnVirtualDispatchTime() {
    let scheduler = DispatchQueue.test
    let input = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    input.delay(for: .seconds(1), scheduler: scheduler)
      .timeout(.seconds(5), scheduler: scheduler)
      .subscribe(recorder)
    input.send(1)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    scheduler.advance(by: .seconds(10))
    #expect(recorder.completion == .finished)
  }

  @Test func schedulingCancellingAndAdvancingFromManyThreads() {
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let log = Log()
    DispatchQueue.concurrentPerform(iterations: 6) { thread in
      for index in 0..<200 {
        if thread == 0 {
          scheduler.advance(by: .microseconds(1))
        } else if index.isMultiple(of: 2) {
          scheduler.schedule(after: start.advanced(by: .microseconds(index))) { log.append(1) }
        } else {
          scheduler.schedule(after: start, interval: .microseconds(3)) { log.append(0) }.cancel()
        }
      }
    }
    scheduler.run()
    // A repeating action cancelled while it ran was queued again, and leaves the heap at its
    // next due time, at most one interval away.
    scheduler.advance(by: .microseconds(3))
    #expect(log.items.filter { $0 == 1 }.count == 5 * 100)
    #expect(scheduler.pendingActionCount == 0)
  }
}

/// Holds a cancellable that the action it started reads; written once before the clock moves.
private final class CancellableHolder: @unchecked Sendable {
  var cancellable: (any Cancellable)?
}
