import Streams
import StreamsTesting
import Testing

@Suite struct CollectByTimeTests {
  @Test func collectsPerWindowSkippingEmptyOnes() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<[Int], Never>()
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
    subject.send(1)
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    scheduler.advance(by: .seconds(1))
    subject.send(3)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [[1, 2], [3]])
  }

  @Test func countPublishesEarlyAndRestartsWindow() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<[Int], Never>(clock: scheduler.clock)
    subject.collect(.byTimeOrCount(scheduler, .seconds(1), 2)).subscribe(recorder)
    scheduler.advance(by: .milliseconds(500))
    subject.send(1)
    subject.send(2)
    subject.send(3)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values == [[1, 2]])
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [[1, 2], [3]])
    #expect(recorder.timedEvents.last?.time == 1_500_000_000)
  }

  @Test func finishPublishesRemainder() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<[Int], Never>()
    subject.collect(.byTime(scheduler, .seconds(1))).subscribe(recorder)
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.values == [[1]])
    #expect(recorder.completion == .finished)
    #expect(scheduler.pendingActionCount <= 1)
  }
}
