import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct SchedulerTests {
  @Test func immediateSchedulerRunsAtOnce() {
    var log: [Int] = []
    ImmediateScheduler.shared.schedule { log.append(1) }
    ImmediateScheduler.shared.schedule(after: ImmediateScheduler.shared.now) { log.append(2) }
    _ = ImmediateScheduler.shared.schedule(
      after: ImmediateScheduler.shared.now, interval: .seconds(1)
    ) { log.append(3) }
    #expect(log == [1, 2, 3])
  }

  @Test func dispatchStrideUnits() {
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride
    #expect(Stride.seconds(1).magnitude == 1_000_000_000)
    #expect(Stride.seconds(0.25).magnitude == 250_000_000)
    #expect(Stride.milliseconds(2).magnitude == 2_000_000)
    #expect(Stride.microseconds(3).magnitude == 3_000)
    #expect(Stride.nanoseconds(4).magnitude == 4)
    #expect(Stride.seconds(Int.max).magnitude == Int.max)
    let start = DispatchQueue.main.now
    #expect(start.distance(to: start.advanced(by: .milliseconds(5))) == .milliseconds(5))
    #expect(start.advanced(by: .milliseconds(5)).distance(to: start) == .milliseconds(-5))
  }

  @Test func dispatchQueueRunsScheduledAndRepeatingActions() {
    let queue = DispatchQueue(label: "scheduler-tests")
    let once = DispatchSemaphore(value: 0)
    queue.schedule(after: queue.now.advanced(by: .milliseconds(1))) { once.signal() }
    #expect(once.wait(timeout: .now() + 5) == .success)
    let ticks = DispatchSemaphore(value: 0)
    let timer = queue.schedule(after: queue.now, interval: .milliseconds(1)) { ticks.signal() }
    #expect(ticks.wait(timeout: .now() + 5) == .success)
    #expect(ticks.wait(timeout: .now() + 5) == .success)
    timer.cancel()
  }

  @Test func anySchedulerForwardsToWrappedScheduler() {
    let scheduler = TestScheduler()
    let erased = scheduler.eraseToAnyScheduler()
    var log: [Int] = []
    erased.schedule { log.append(1) }
    erased.schedule(after: erased.now.advanced(by: .seconds(1))) { log.append(2) }
    scheduler.advance()
    #expect(log == [1])
    scheduler.advance(by: .seconds(1))
    #expect(log == [1, 2])
    #expect(erased.now == scheduler.now)
  }

  @Test func debounceWorksThroughAnyScheduler() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.debounce(for: .seconds(1), scheduler: AnyScheduler(scheduler)).subscribe(recorder)
    subject.send(1)
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [2])
  }
}
