import Streams
import StreamsTesting
import Testing

@Suite struct SubscribeOnTests {
  @Test func nothingReachesTheDownstreamAfterItCancelled() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.subscribe(on: scheduler).subscribe(recorder)
    scheduler.advance()
    upstream.send(1)
    recorder.cancel()
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
    scheduler.advance()
    #expect(upstream.cancelCount == 1)
  }

  @Test func aSecondCompletionIsNotPassedOn() {
    let scheduler = TestScheduler()
    let recorder = RecordingSubscriber<Int, TestError>()
    let misbehaving = CapturingPublisher()
    misbehaving.subscribe(on: scheduler).subscribe(recorder)
    scheduler.advance()
    misbehaving.subscriber?.receive(completion: .finished)
    misbehaving.subscriber?.receive(completion: .failure(.boom))
    _ = misbehaving.subscriber?.receive(3)
    #expect(recorder.completion == .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.violations.isEmpty)
  }
}

/// A publisher that keeps its subscriber so a test can send it events out of contract.
private final class CapturingPublisher: Publisher {
  typealias Output = Int
  typealias Failure = TestError

  var subscriber: AnySubscriber<Int, TestError>?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
    self.subscriber = AnySubscriber(subscriber)
    subscriber.receive(subscription: Subscriptions.empty)
  }
}
