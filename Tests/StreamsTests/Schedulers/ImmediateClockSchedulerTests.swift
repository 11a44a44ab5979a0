import Foundation
import Streams
import Testing

@Suite struct ImmediateClockSchedulerTests {
  @Test func dispatchQueueImmediateRunsEverythingAtOnceWithAStandingClock() {
    let scheduler = DispatchQueue.immediate
    let start = scheduler.now
    var log: [Int] = []
    scheduler.schedule { log.append(1) }
    scheduler.schedule(after: start.advanced(by: .seconds(60))) { log.append(2) }
    let repeating = scheduler.schedule(after: start, interval: .seconds(1)) { log.append(3) }
    repeating.cancel()
    #expect(log == [1, 2, 3])
    #expect(scheduler.now == start)
    #expect(start.dispatchTime.uptimeNanoseconds == 1)
  }

  @Test func codeTakingADispatchQueueDoesNotWaitOnImmediate() {
    let subject = PassthroughSubject<String, Never>()
    var searched: [String] = []
    let cancellable =
      subject
      .debounce(for: .milliseconds(300), scheduler: AnySchedulerOf<DispatchQueue>.immediate)
      .sink { searched.append($0) }
    subject.send("s")
    subject.send("sw")
    #expect(searched == ["s", "sw"])
    cancellable.cancel()
  }

  @Test func standsInForAnySchedulersTimeType() {
    typealias Time = ImmediateScheduler.SchedulerTimeType
    let scheduler = ImmediateSchedulerOf<ImmediateScheduler>(now: Time(step: 7))
    var ran = false
    scheduler.schedule(after: Time(step: 100)) { ran = true }
    #expect(ran)
    #expect(scheduler.now == Time(step: 7))
    #expect(scheduler.minimumTolerance == .zero)
  }

  @Test func immediateSchedulerStrideTakesFloatLiteralsTruncated() {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride
    #expect(Stride(14) == 14.6)
    #expect(Stride(-4) == -4.1)
    #expect(Stride(0) == 0.999)
    #expect(Stride(.max) == 1e300)
  }
}
