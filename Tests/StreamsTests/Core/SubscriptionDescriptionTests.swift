import Streams
import StreamsTesting
import Testing

@Suite struct SubscriptionDescriptionTests {
  /// The description of the subscription `publisher` gives its subscriber.
  private func describe<P: Publisher>(_ publisher: P) -> String {
    var subscription: (any Subscription)?
    publisher.subscribe(
      AnySubscriber<P.Output, P.Failure>(receiveSubscription: { subscription = $0 }))
    defer { subscription?.cancel() }
    return subscription.map { String(describing: $0) } ?? "none"
  }

  @Test func eachSubscriptionIsNamedForItsOperator() {
    let scheduler = TestScheduler()
    let subject = PassthroughSubject<Int, Never>()
    #expect(describe(subject) == "PassthroughSubject")
    #expect(describe(CurrentValueSubject<Int, Never>(0)) == "CurrentValueSubject")
    #expect(describe(Just(1)) == "Just")
    #expect(describe(Optional(1).publisher) == "Optional")
    #expect(describe(Result<Int, Never>.success(1).publisher) == "Once")
    #expect(describe([1, 2].publisher) == "Sequence")
    #expect(describe(Future<Int, Never> { _ in }) == "Future")
    #expect(describe(subject.debounce(for: .seconds(1), scheduler: scheduler)) == "Debounce")
    #expect(
      describe(subject.throttle(for: .seconds(1), scheduler: scheduler, latest: true)) == "Throttle"
    )
    #expect(
      describe(subject.buffer(size: 1, prefetch: .keepFull, whenFull: .dropNewest)) == "Buffer")
    #expect(describe(subject.merge(with: subject)) == "Merge")
    #expect(describe(subject.zip(subject)) == "Zip")
    #expect(describe(subject.combineLatest(subject)) == "CombineLatest")
    #expect(describe(subject.scan(0, +)) == "Scan")
    #expect(describe(subject.tryMap { $0 }) == "TryMap")
    #expect(describe(subject.first()) == "First")
    #expect(describe(subject.reduce(0, +)) == "Reduce")
    #expect(describe(subject.handleEvents()) == "HandleEvents")
    #expect(describe(subject.receive(on: ImmediateScheduler.shared)) == "ReceiveOn")
    #expect(describe(subject.replaceEmpty(with: 0)) == "ReplaceEmpty")
    #expect(describe(subject.retry(1)) == "Retry")
    #expect(describe(subject.prefix(untilOutputFrom: subject)) == "PrefixUntilOutput")
    #expect(describe(subject.drop(untilOutputFrom: subject)) == "DropUntilOutput")
    #expect(describe(subject.withLatestFrom(subject)) == "WithLatestFrom")
    #expect(describe(subject.measureInterval(using: scheduler)) == "MeasureInterval")
    #expect(describe(subject.multicast { PassthroughSubject<Int, Never>() }) == "Multicast")
    #expect(describe(AsyncStream<Int> { $0.finish() }.publisher) == "FromAsyncSequence")
  }

  @Test func statelessOperatorsNameTheirSubscriber() {
    let probe = SubscriberProbe()
    probe.map { $0 + 1 }.subscribe(RecordingSubscriber<Int, Never>())
    probe.filter { $0 > 1 }.subscribe(RecordingSubscriber<Int, Never>())
    probe.compactMap { $0 }.subscribe(RecordingSubscriber<Int, Never>())
    probe.setFailureType(to: TestError.self).subscribe(RecordingSubscriber<Int, TestError>())
    #expect(probe.described == ["Map", "Filter", "CompactMap", "SetFailureType"])
  }

  @Test func mirrorsAndPlaygroundsShowTheName() {
    var subscription: (any Subscription)?
    PassthroughSubject<Int, Never>().debounce(for: .seconds(1), scheduler: TestScheduler())
      .subscribe(AnySubscriber<Int, Never>(receiveSubscription: { subscription = $0 }))
    guard let subscription else {
      Issue.record("no subscription")
      return
    }
    let mirror = Mirror(reflecting: subscription)
    #expect(mirror.children.first?.label == "operator")
    #expect(mirror.children.first?.value as? String == "Debounce")
    let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?
      .playgroundDescription
    #expect(playground as? String == "Debounce")
    subscription.cancel()
  }
}

/// A publisher that records how the subscribers it receives describe themselves.
private final class SubscriberProbe: Publisher {
  typealias Output = Int
  typealias Failure = Never

  var described: [String] = []

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
    described.append(String(describing: subscriber))
  }
}
