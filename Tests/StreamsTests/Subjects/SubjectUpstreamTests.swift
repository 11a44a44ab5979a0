import Streams
import StreamsTesting
import Testing

@Suite struct SubjectUpstreamTests {
  @Test func sendSubscriptionRequestsUnlimitedOnlyOnceADownstreamHasDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let connection = upstream.subscribe(subject)
    #expect(upstream.demandLog.isEmpty)
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    subject.subscribe(recorder)
    #expect(upstream.demandLog.isEmpty)
    recorder.request(.max(1))
    #expect(upstream.demandLog == [.unlimited])
    recorder.request(.max(1))
    #expect(upstream.demandLog == [.unlimited])

    let later = ManualPublisher<Int, Never>()
    let laterConnection = later.subscribe(subject)
    #expect(later.demandLog == [.unlimited])
    connection.cancel()
    laterConnection.cancel()
  }

  @Test func currentValueSubjectAlsoWaitsForDownstreamDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let subject = CurrentValueSubject<Int, Never>(0)
    let connection = upstream.subscribe(subject)
    #expect(upstream.demandLog.isEmpty)
    let recorder = RecordingSubscriber<Int, Never>()
    subject.subscribe(recorder)
    #expect(upstream.demandLog == [.unlimited])
    upstream.send(4)
    #expect(recorder.values == [0, 4])
    connection.cancel()
  }

  @Test func deallocatedSubjectCancelsItsUpstreamSubscriptions() {
    let upstream = ManualPublisher<Int, Never>()
    var passthrough: PassthroughSubject<Int, Never>? = PassthroughSubject()
    passthrough?.send(subscription: subscription(of: upstream))
    #expect(upstream.cancelCount == 0)
    passthrough = nil
    #expect(upstream.cancelCount == 1)

    var current: CurrentValueSubject<Int, Never>? = CurrentValueSubject(1)
    current?.send(subscription: subscription(of: upstream))
    current = nil
    #expect(upstream.cancelCount == 2)
  }

  @Test func anySubscriberOfASubjectCancelsASecondSubscription() {
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    subject.subscribe(recorder)
    let inlet = AnySubscriber(subject)
    first.subscribe(inlet)
    second.subscribe(inlet)
    #expect(first.cancelCount == 0)
    #expect(second.cancelCount == 1)
    #expect(first.demandLog == [.unlimited])
    #expect(second.demandLog.isEmpty)
  }

  @Test func anySubscriberOfASubjectIgnoresEventsAfterCompletion() {
    let subject = CurrentValueSubject<Int, Never>(0)
    let recorder = RecordingSubscriber<Int, Never>()
    subject.subscribe(recorder)
    let inlet = AnySubscriber(subject)
    inlet.receive(subscription: Subscriptions.empty)
    _ = inlet.receive(1)
    inlet.receive(completion: .finished)
    _ = inlet.receive(2)
    inlet.receive(completion: .finished)
    #expect(recorder.values == [0, 1])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  /// A subscription of `upstream`, taken by a subscriber that does nothing with it.
  private func subscription(of upstream: ManualPublisher<Int, Never>) -> any Subscription {
    var taken: (any Subscription)?
    upstream.subscribe(AnySubscriber<Int, Never>(receiveSubscription: { taken = $0 }))
    return taken!
  }
}
