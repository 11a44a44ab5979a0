import Streams
import StreamsTesting
import Testing

@Suite struct UntilOutputTests {
  @Test func prefixFinishesOnOtherOutput() {
    let upstream = ManualPublisher<Int, Never>()
    let other = PassthroughSubject<Void, TestFailure>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    upstream.send(1)
    other.send()
    upstream.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)
  }

  @Test func prefixIgnoresOtherCompletion() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Void, TestFailure>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    other.send(completion: .failure(.boom))
    upstream.send(1)
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
  }

  @Test func dropPassesValuesAfterOtherOutput() {
    let upstream = ManualPublisher<Int, Never>()
    let other = PassthroughSubject<Void, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.drop(untilOutputFrom: other).subscribe(recorder)
    upstream.send(1)
    other.send()
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values == [2, 3])
  }

  @Test func droppedValueTakesItsDemandAndPassedValueReturnsTheDownstreamDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let other = ManualPublisher<Void, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(4), demandPerValue: .max(3))
    upstream.drop(untilOutputFrom: other).subscribe(recorder)
    #expect(other.demandLog == [.max(1)])
    #expect(upstream.demandLog == [.max(4)])
    #expect(upstream.send(1) == [.none])
    #expect(upstream.demandLog == [.max(4)])
    other.send(())
    #expect(upstream.send(2) == [.max(3)])
    recorder.request(.max(5))
    #expect(upstream.demandLog == [.max(4), .max(5)])
    #expect(recorder.values == [2])
    #expect(other.cancelCount == 0)
  }

  @Test func prefixPassesValuesStraightThroughAndLeavesTheTriggerUncancelled() {
    let upstream = ManualPublisher<Int, Never>()
    let other = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(2))
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    #expect(upstream.demandLog == [.max(3)])
    #expect(other.demandLog == [.max(1)])
    #expect(upstream.send(1) == [.max(2)])
    other.send(9)
    #expect(recorder.values == [1])
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)
    #expect(other.cancelCount == 0)
  }

  @Test func prefixUpstreamFinishCancelsTheOtherPublisher() {
    let upstream = ManualPublisher<Int, Never>()
    let other = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    upstream.send(completion: .finished)
    #expect(recorder.completion == .finished)
    #expect(other.cancelCount == 1)
  }

  @Test func demandAskedBeforeTheUpstreamSubscribesIsForwardedWhenItDoes() {
    let other = PassthroughSubject<Void, Never>()
    let upstream = Deferred { Just(1) }
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    #expect(recorder.values == [1])
    #expect(recorder.completion == .finished)
  }

  @Test func aTriggerDuringADeliveryCompletesAfterIt() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Void, Never>()
    let subscriber = TriggeringSubscriber { other.send() }
    upstream.prefix(untilOutputFrom: other).subscribe(subscriber)
    upstream.send(1)
    #expect(subscriber.log == ["value 1", "returned", "finished"])
  }

  @Test func dropFinishesWhenOtherFinishesWithoutOutput() {
    let upstream = ManualPublisher<Int, TestFailure>()
    let other = PassthroughSubject<Void, TestFailure>()
    let recorder = RecordingSubscriber<Int, TestFailure>()
    upstream.drop(untilOutputFrom: other).subscribe(recorder)
    other.send(completion: .finished)
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)

    let failingUpstream = ManualPublisher<Int, TestFailure>()
    let failingOther = PassthroughSubject<Void, TestFailure>()
    let failing = RecordingSubscriber<Int, TestFailure>()
    failingUpstream.drop(untilOutputFrom: failingOther).subscribe(failing)
    failingOther.send(completion: .failure(.boom))
    #expect(failing.completion == .failure(.boom))
  }
}

/// A subscriber that runs `trigger` while it receives a value, logging what reaches it and when
/// its `receive(_:)` returns.
private final class TriggeringSubscriber: Subscriber {
  typealias Input = Int
  typealias Failure = Never

  let trigger: () -> Void
  private(set) var log: [String] = []

  init(trigger: @escaping () -> Void) {
    self.trigger = trigger
  }

  func receive(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  func receive(_ input: Int) -> Subscribers.Demand {
    log.append("value \(input)")
    trigger()
    log.append("returned")
    return .none
  }

  func receive(completion: Subscribers.Completion<Never>) {
    log.append("finished")
  }
}
