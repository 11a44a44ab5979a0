import Streams
import StreamsTesting
import Testing

@Suite struct ThrottleTests {
  private func run(latest: Bool) -> [(Int, Int?)] {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(clock: scheduler.clock)
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(recorder)
    subject.send(1)
    scheduler.advance(by: .milliseconds(200))
    subject.send(2)
    scheduler.advance(by: .milliseconds(200))
    subject.send(3)
    scheduler.advance(by: .seconds(2))
    subject.send(4)
    scheduler.advance(by: .seconds(2))
    return recorder.timedEvents.compactMap { entry in
      if case .value(let value) = entry.event { return (value, entry.time.map { $0 / 1_000_000 }) }
      return nil
    }
  }

  @Test func latestTruePublishesFirstThenLatestAtIntervalEnd() {
    let events = run(latest: true)
    #expect(events.map(\.0) == [1, 3, 4])
    #expect(events.map(\.1) == [0, 1_000, 2_400])
  }

  @Test func latestFalsePublishesFirstThenFirstOfInterval() {
    let events = run(latest: false)
    #expect(events.map(\.0) == [1, 2, 4])
    #expect(events.map(\.1) == [0, 1_000, 2_400])
  }

  @Test func firstValueIsScheduledAndReplacedByLaterValuesOfTheSameTurn() {
    for (latest, expected) in [(true, [3]), (false, [1])] {
      let scheduler = TestScheduler()
      let subject = PassthroughSubject<Int, Never>()
      let recorder = RecordingSubscriber<Int, Never>()
      subject.throttle(for: .seconds(1), scheduler: scheduler, latest: latest).subscribe(recorder)
      for value in 1...3 { subject.send(value) }
      #expect(recorder.values.isEmpty)
      scheduler.advance()
      #expect(recorder.values == expected)
    }
  }

  @Test func finishWaitsForTheHeldValuesPublicationAndFollowsIt() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(clock: scheduler.clock)
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    subject.send(completion: .finished)
    scheduler.advance(by: .milliseconds(999))
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
    scheduler.advance(by: .milliseconds(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
    #expect(recorder.timedEvents.suffix(2).map(\.time) == [1_000_000_000, 1_000_000_000])
  }

  @Test func failureDeliversTheHeldValueThenTheFailureWhenTheValueIsDue() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    subject.send(completion: .failure(.boom))
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .failure(.boom))
    scheduler.advance(by: .seconds(2))
    #expect(recorder.values == [1, 2])
  }

  @Test func completionWithNothingHeldIsScheduledAtOnce() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
    subject.send(1)
    scheduler.advance()
    subject.send(completion: .failure(.boom))
    #expect(recorder.completion == nil)
    scheduler.advance()
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.boom))
  }

  @Test func valueWithoutDemandIsDropped() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true).subscribe(recorder)
    subject.send(1)
    scheduler.advance()
    subject.send(2)
    scheduler.advance(by: .seconds(1))
    recorder.request(.max(1))
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    #expect(recorder.violations.isEmpty)
  }
}
