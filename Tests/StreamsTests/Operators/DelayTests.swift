import Streams
import StreamsTesting
import Testing

@Suite struct DelayTests {
  @Test func delaysValuesAndCompletion() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(clock: scheduler.clock)
    subject.delay(for: .seconds(2), scheduler: scheduler).subscribe(recorder)
    subject.send(1)
    scheduler.advance(by: .seconds(1))
    subject.send(2)
    subject.send(completion: .finished)
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1])
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
    #expect(
      recorder.timedEvents.compactMap(\.time) == [0, 2_000_000_000, 3_000_000_000, 3_000_000_000])
  }

  @Test func demandPassesThrough() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    #expect(upstream.requestedDemand == .max(2))
    recorder.request(.max(3))
    #expect(upstream.requestedDemand == .max(5))
  }

  @Test func cancelDropsValuesInFlight() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.delay(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
    upstream.send(1)
    recorder.cancel()
    scheduler.advance(by: .seconds(1))
    #expect(recorder.values.isEmpty)
    #expect(upstream.cancelCount == 1)
  }
}
