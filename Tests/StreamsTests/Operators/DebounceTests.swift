import Streams
import StreamsTesting
import Testing

@Suite struct DebounceTests {
  @Test func publishesLatestValueAfterQuietPeriod() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(clock: scheduler.clock)
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    subject.send(1)
    scheduler.advance(by: .milliseconds(500))
    subject.send(2)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values.isEmpty)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [2])
    #expect(recorder.timedEvents.last?.time == 1_500_000_000)
  }

  @Test func dropsPendingValueAndSchedulesTheCompletion() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.completion == nil)
    scheduler.advance()
    #expect(recorder.completion == .finished)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values.isEmpty)
  }

  @Test func dropsValueWhenDownstreamHasNoDemand() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    recorder.request(.max(1))
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.isEmpty)
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [2])
    #expect(recorder.violations.isEmpty)
  }

  @Test func forwardsEveryValueOnImmediateScheduler() {
    let recorder = RecordingSubscriber<Int, Never>()
    (1...3).publisher.debounce(for: .seconds(1), scheduler: ImmediateScheduler.shared)
      .subscribe(recorder)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completion == .finished)
  }

  @Test func cancelStopsPendingDelivery() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    upstream.send(1)
    recorder.cancel()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.isEmpty)
    #expect(upstream.cancelCount == 1)
  }

  @Test func failureDropsThePendingValueAndIsScheduledOnce() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    upstream.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    upstream.send(completion: .finished)
    #expect(recorder.completion == nil)
    scheduler.advance()
    #expect(recorder.completion == .failure(.boom))
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values.isEmpty)
    #expect(recorder.violations.isEmpty)
  }
}
