import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct MulticastTests {
  @Test func multicastStartsOnConnect() {
    let upstream = ManualPublisher<Int, Never>()
    let multicast = upstream.multicast { PassthroughSubject<Int, Never>() }
    let first = RecordingSubscriber<Int, Never>()
    let second = RecordingSubscriber<Int, Never>()
    multicast.subscribe(first)
    multicast.subscribe(second)
    #expect(upstream.subscriptionCount == 0)
    let connection = multicast.connect()
    #expect(upstream.subscriptionCount == 1)
    upstream.send(1)
    #expect(first.values == [1])
    #expect(second.values == [1])
    connection.cancel()
    #expect(upstream.cancelCount == 1)
  }

  @Test func multicastSubjectIsUsedAsGiven() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    let multicast = [1, 2].publisher.multicast(subject: subject)
    multicast.subscribe(recorder)
    let connection = multicast.connect()
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
    connection.cancel()
  }

  @Test func makeConnectableAndAutoconnect() {
    let upstream = ManualPublisher<Int, Never>()
    let shared = upstream.makeConnectable().autoconnect()
    let first = RecordingSubscriber<Int, Never>()
    shared.subscribe(first)
    #expect(upstream.subscriptionCount == 1)
    let second = RecordingSubscriber<Int, Never>()
    shared.subscribe(second)
    #expect(upstream.subscriptionCount == 1)
    upstream.send(5)
    #expect(first.values == [5])
    #expect(second.values == [5])
    first.cancel()
    #expect(upstream.cancelCount == 0)
    second.cancel()
    #expect(upstream.cancelCount == 1)
  }

  @Test func shareConnectsOnFirstAndCancelsAfterLast() {
    let upstream = ManualPublisher<Int, Never>()
    let shared = upstream.share()
    #expect(upstream.subscriptionCount == 0)
    let first = RecordingSubscriber<Int, Never>()
    let second = RecordingSubscriber<Int, Never>()
    shared.subscribe(first)
    shared.subscribe(second)
    #expect(upstream.subscriptionCount == 1)
    #expect(upstream.requestedDemand == .unlimited)
    upstream.send(1)
    first.cancel()
    upstream.send(2)
    #expect(first.values == [1])
    #expect(second.values == [1, 2])
    #expect(upstream.cancelCount == 0)
    second.cancel()
    #expect(upstream.cancelCount == 1)
    let third = RecordingSubscriber<Int, Never>()
    shared.subscribe(third)
    #expect(upstream.subscriptionCount == 2)
    third.cancel()
  }

  @Test func shareDeliversCompletionToLateSubscribers() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share()
    let first = RecordingSubscriber<Int, Never>()
    shared.subscribe(first)
    subject.send(completion: .finished)
    #expect(first.completion == .finished)
    #expect(shared == shared)
  }

  @Test func shareReplayReplaysLastValues() {
    let upstream = ManualPublisher<Int, Never>()
    let shared = upstream.share(replay: 2)
    let first = RecordingSubscriber<Int, Never>()
    shared.subscribe(first)
    for value in 1...3 { upstream.send(value) }
    let late = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    shared.subscribe(late)
    #expect(late.values == [2])
    upstream.send(4)
    late.request(.unlimited)
    #expect(late.values == [2, 3, 4])
    #expect(first.values == [1, 2, 3, 4])
    #expect(late.violations.isEmpty)
    upstream.send(completion: .finished)
    let after = RecordingSubscriber<Int, Never>()
    shared.subscribe(after)
    #expect(after.values == [3, 4])
    #expect(after.completion == .finished)
  }
}

@Suite struct ShareLifecycleTests {
  @Test func synchronousUpstreamDeliversToFirstSubscriber() {
    let shared = [1, 2, 3].publisher.share()
    let recorder = RecordingSubscriber<Int, Never>()
    shared.subscribe(recorder)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completion == .finished)
  }

  @Test func multicastMakesItsSubjectOnce() {
    let made = Counter()
    let multicast = PassthroughSubject<Int, Never>().multicast {
      () -> PassthroughSubject<Int, Never> in
      made.increment()
      return PassthroughSubject()
    }
    multicast.subscribe(RecordingSubscriber<Int, Never>())
    multicast.subscribe(RecordingSubscriber<Int, Never>())
    let connection = multicast.connect()
    #expect(made.value == 1)
    connection.cancel()
  }

  @Test func subscribersComingAndGoingOnManyThreads() {
    let upstream = ManualPublisher<Int, Never>()
    let shared = upstream.share()
    DispatchQueue.concurrentPerform(iterations: 4) { thread in
      for round in 0..<200 {
        if thread == 0 {
          upstream.send(round)
        } else {
          let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
          shared.subscribe(recorder)
          recorder.cancel()
          #expect(recorder.violations.isEmpty)
        }
      }
    }
    #expect(upstream.subscriptionCount >= 1)
    #expect(upstream.cancelCount == upstream.subscriptionCount)
    #expect(!upstream.hasSubscribers)
  }

  @Test func shareReplayUnderConcurrentSends() {
    let subject = PassthroughSubject<Int, Never>()
    let shared = subject.share(replay: 3)
    let keeper = RecordingSubscriber<Int, Never>()
    shared.subscribe(keeper)
    DispatchQueue.concurrentPerform(iterations: 3) { thread in
      for round in 0..<200 {
        if thread == 0 {
          subject.send(round)
        } else {
          let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
          shared.subscribe(recorder)
          #expect(recorder.values.count <= 2)
          recorder.cancel()
        }
      }
    }
    #expect(keeper.values == Array(0..<200))
    #expect(keeper.violations.isEmpty)
  }
  @Test func eachSubscribersDemandAndCancelReachTheSubjectAsTheyAre() {
    let subject = SubscriptionRecordingSubject()
    let multicast = ManualPublisher<Int, Never>().multicast(subject: subject)
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3), demandPerValue: .max(2))
    multicast.subscribe(recorder)
    #expect(subject.subscriptions.demandLog == [.max(3)])
    #expect(subject.subscriptions.send(7) == [.max(2)])
    recorder.request(.max(4))
    #expect(subject.subscriptions.demandLog == [.max(3), .max(4)])
    #expect(recorder.values == [7])
    recorder.cancel()
    #expect(subject.subscriptions.cancelCount == 1)
    #expect(recorder.violations.isEmpty)
  }
}

/// A subject whose subscribers are attached to a ``ManualPublisher``, to observe what they request
/// and cancel.
private final class SubscriptionRecordingSubject: Subject {
  typealias Output = Int
  typealias Failure = Never

  let subscriptions = ManualPublisher<Int, Never>()

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    subscriptions.receive(subscriber: subscriber)
  }

  func send(subscription: any Subscription) {
    subscription.request(.unlimited)
  }

  func send(_ value: Int) {
    subscriptions.send(value)
  }

  func send(completion: Subscribers.Completion<Never>) {
    subscriptions.send(completion: completion)
  }
}

/// A thread-safe counter.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`.
  private var count = 0

  func increment() { lock.withLock { count += 1 } }
  var value: Int { lock.withLock { count } }
}

@Suite struct AutoconnectTests {
  @Test func subscribingAgainDuringConnectCausesASecondConnection() {
    var connections = 0
    let upstream = Deferred { () -> Just<Int> in
      connections += 1
      return Just(connections)
    }
    let shared = upstream.makeConnectable().autoconnect()
    var received: [Int] = []
    var cancellables: [AnyCancellable] = []
    shared.sink(
      receiveCompletion: { _ in
        shared.sink { received.append($0) }.store(in: &cancellables)
      },
      receiveValue: { received.append($0) }
    ).store(in: &cancellables)
    #expect(connections == 2)
    #expect(received == [1])
  }

  @Test func aCompletedSubscriberStillCountsSoALaterSubscriberDoesNotConnectAgain() {
    var connections = 0
    let shared = Deferred { () -> Just<Int> in
      connections += 1
      return Just(connections)
    }.makeConnectable().autoconnect()
    let first = RecordingSubscriber<Int, Never>()
    shared.subscribe(first)
    #expect(first.values == [1])
    #expect(first.completion == .finished)
    let second = RecordingSubscriber<Int, Never>()
    shared.subscribe(second)
    #expect(connections == 1)
    #expect(second.values.isEmpty)
    #expect(second.completion == .finished)
  }
}
