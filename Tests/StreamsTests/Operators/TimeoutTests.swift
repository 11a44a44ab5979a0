import Streams
import StreamsTesting
import Testing

@Suite struct TimeoutTests {
  @Test func failsWithCustomErrorAfterSilence() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, TestFailure>()
    let recorder = RecordingSubscriber<Int, TestFailure>(clock: scheduler.clock)
    upstream.timeout(.seconds(1), scheduler: scheduler) { .timedOut }.subscribe(recorder)
    scheduler.advance(by: .milliseconds(900))
    upstream.send(1)
    scheduler.advance(by: .milliseconds(900))
    #expect(recorder.completion == nil)
    scheduler.advance(by: .milliseconds(100))
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.timedOut))
    #expect(recorder.timedEvents.last?.time == 1_900_000_000)
    #expect(upstream.cancelCount == 1)
  }

  @Test func finishesWithoutCustomError() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.timeout(.seconds(1), scheduler: scheduler).subscribe(recorder)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.completion == .finished)
  }

  @Test func upstreamCompletionWinsBeforeTimeout() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, TestFailure>()
    let recorder = RecordingSubscriber<Int, TestFailure>()
    subject.timeout(.seconds(1), scheduler: scheduler) { .timedOut }.subscribe(recorder)
    subject.send(completion: .finished)
    scheduler.advance(by: .seconds(2))
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }
}
