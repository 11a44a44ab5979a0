import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct AnySchedulerTests {
  @Test func forwardsOptionsToTheWrappedScheduler() {
    let queue = DispatchQueue(label: "any-scheduler-options")
    let scheduler: AnySchedulerOf<DispatchQueue> = queue.eraseToAnyScheduler()
    let group = DispatchGroup()
    queue.suspend()
    scheduler.schedule(options: .init(group: group)) {}
    #expect(group.wait(timeout: .now()) == .timedOut)
    queue.resume()
    #expect(group.wait(timeout: .now() + 5) == .success)
  }

  @Test func forwardsOptionsOfDelayedAndRepeatingActions() {
    let recorder = OptionsRecordingScheduler()
    let scheduler = AnyScheduler(recorder)
    scheduler.schedule(after: scheduler.now, tolerance: .zero, options: "once") {}
    _ = scheduler.schedule(
      after: scheduler.now, interval: .seconds(1), tolerance: .zero, options: "repeating"
    ) {}
    scheduler.schedule {}
    #expect(recorder.options == ["once", "repeating", nil])
  }

  @Test func mainIsTheMainQueue() {
    let scheduler: AnySchedulerOf<DispatchQueue> = .main
    let before = DispatchQueue.main.now
    #expect(scheduler.now >= before)
    #expect(scheduler.minimumTolerance == DispatchQueue.main.minimumTolerance)
  }

  @Test func erasingAnErasedSchedulerKeepsIt() {
    let scheduler = TestScheduler()
    let erased = scheduler.eraseToAnyScheduler().eraseToAnyScheduler()
    var log: [Int] = []
    erased.schedule(after: erased.now.advanced(by: .seconds(1))) { log.append(1) }
    scheduler.advance(by: .seconds(1))
    #expect(log == [1])
  }

  @Test func aServiceTakingADispatchQueueRunsOnVirtualTime() {
    let scheduler = DispatchQueue.test
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    let erased: AnySchedulerOf<DispatchQueue> = scheduler.eraseToAnyScheduler()
    subject.delay(for: .seconds(2), scheduler: erased).subscribe(recorder)
    subject.send(1)
    scheduler.advance(by: 1.999)
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [1])
  }
}

/// A scheduler that runs actions at once and records the options each call was given.
private final class OptionsRecordingScheduler: Scheduler, @unchecked Sendable {
  typealias SchedulerTimeType = ImmediateScheduler.SchedulerTimeType
  typealias SchedulerOptions = String

  private let lock = NSLock()
  // Protected by `lock`.
  private var recorded: [String?] = []

  var options: [String?] { lock.withLock { recorded } }
  var now: SchedulerTimeType { ImmediateScheduler.shared.now }
  var minimumTolerance: SchedulerTimeType.Stride { .zero }

  func schedule(options: String?, _ action: @escaping () -> Void) {
    lock.withLock { recorded.append(options) }
  }

  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: String?,
    _ action: @escaping () -> Void
  ) {
    lock.withLock { recorded.append(options) }
  }

  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: String?, _ action: @escaping () -> Void
  ) -> any Cancellable {
    lock.withLock { recorded.append(options) }
    return AnyCancellable {}
  }
}
