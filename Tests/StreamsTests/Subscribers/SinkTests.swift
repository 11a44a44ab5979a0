import Foundation
import Streams
import StreamsTesting
import Testing

@Suite struct SinkTests {
  final class Owner {
    var cancellables = Set<AnyCancellable>()
    var received: [Int] = []
    var title = ""
  }

  @Test func receivesValuesAndCompletion() {
    var values: [Int] = []
    var completion: Subscribers.Completion<TestError>?
    let subject = PassthroughSubject<Int, TestError>()
    let cancellable = subject.sink(
      receiveCompletion: { completion = $0 }, receiveValue: { values.append($0) })
    subject.send(1)
    subject.send(completion: .failure(TestError(code: 2)))
    #expect(values == [1])
    #expect(completion == .failure(TestError(code: 2)))
    withExtendedLifetime(cancellable) {}
  }

  @Test func cancelCancelsUpstream() {
    let upstream = ManualPublisher<Int, Never>()
    let cancellable = upstream.sink { _ in }
    #expect(upstream.requestedDemand == .unlimited)
    cancellable.cancel()
    cancellable.cancel()
    #expect(upstream.cancelCount == 1)
  }

  @Test func completionReleasesClosuresSoOwnersAreFreed() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
      subject.sink { owner.received.append($0) }.store(in: &owner.cancellables)
      subject.send(1)
      #expect(owner.received == [1])
    }
    #expect(weakOwner != nil)
    subject.send(completion: .finished)
    #expect(weakOwner == nil)
  }

  @Test func aCompletionFromInsideTheValueClosureReleasesTheClosuresOnlyOnceItReturns() {
    let upstream = ManualPublisher<Int, Never>()
    let log = Owner()
    weak var weakOwner: Owner?
    let cancellable: AnyCancellable
    do {
      let owner = Owner()
      weakOwner = owner
      cancellable = upstream.sink(
        receiveCompletion: { _ in log.title += "finished " },
        receiveValue: { value in
          upstream.send(completion: .finished)
          // Still running after the completion: what the closure captured must be alive.
          owner.received.append(value)
          log.title += "value \(owner.received) "
        })
    }
    _ = upstream.send(1)
    #expect(log.title == "finished value [1] ")
    #expect(weakOwner == nil)
    _ = upstream.send(2)
    #expect(log.title == "finished value [1] ")
    withExtendedLifetime(cancellable) {}
  }

  /// A subscription that counts what it is asked.
  final class CountingSubscription: Subscription, @unchecked Sendable {
    private let lock = NSLock()
    // Protected by `lock`.
    private var requests = 0
    private var cancels = 0

    func request(_ demand: Subscribers.Demand) { lock.withLock { requests += 1 } }
    func cancel() { lock.withLock { cancels += 1 } }
    var counts: (requests: Int, cancels: Int) { lock.withLock { (requests, cancels) } }
  }

  @Test func aCancelRacingTheSubscriptionCancelsItExactlyOnce() {
    for _ in 0..<2_000 {
      let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
      let subscription = CountingSubscription()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 { sink.receive(subscription: subscription) } else { sink.cancel() }
      }
      #expect(subscription.counts.cancels == 1)
      #expect(subscription.counts.requests <= 1)
      sink.cancel()
      #expect(subscription.counts.cancels == 1)
    }
  }

  @Test func aSecondSubscriptionIsCancelledAndTheFirstKept() {
    let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
    let first = CountingSubscription()
    let second = CountingSubscription()
    sink.receive(subscription: first)
    sink.receive(subscription: second)
    #expect(first.counts.requests == 1 && first.counts.cancels == 0)
    #expect(second.counts.requests == 0 && second.counts.cancels == 1)
    sink.receive(completion: .finished)
    sink.cancel()
    #expect(first.counts.cancels == 0)
  }

  @Test func assignWritesToTheProperty() {
    let owner = Owner()
    let subject = PassthroughSubject<String, Never>()
    let cancellable = subject.assign(to: \.title, on: owner)
    subject.send("a")
    subject.send("b")
    #expect(owner.title == "b")
    cancellable.cancel()
    subject.send("c")
    #expect(owner.title == "b")
  }

  @Test func assignReleasesTheObjectOnCompletion() {
    let subject = PassthroughSubject<String, Never>()
    weak var weakOwner: Owner?
    var cancellable: AnyCancellable?
    do {
      let owner = Owner()
      weakOwner = owner
      cancellable = subject.assign(to: \.title, on: owner)
    }
    #expect(weakOwner != nil)
    subject.send(completion: .finished)
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }
}
