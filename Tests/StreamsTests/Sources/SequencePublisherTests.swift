import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct SequencePublisherTests {
  @Test func deliversEveryElementThenFinishes() {
    let recorder = RecordingSubscriber<Int, Never>()
    (1...5).publisher.subscribe(recorder)
    #expect(recorder.values == [1, 2, 3, 4, 5])
    #expect(recorder.completion == .finished)
  }

  @Test func honoursDemandOneAtATime() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    (1...5).publisher.subscribe(recorder)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2, 3])
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2, 3, 4, 5])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func mapTransformsValues() {
    let recorder = RecordingSubscriber<String, Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    (1...3).publisher.eraseToAnyPublisher().map { $0 * 10 }.map(\.description)
      .subscribe(recorder)
    #expect(recorder.values == ["10", "20", "30"])
    #expect(recorder.completion == .finished)
  }

  @Test func cancelFromInsideReceiveStopsDeliveryWithoutCompletion() {
    let subscriber = CancelOnFirstValue<Int, Never>()
    (1...10).publisher.eraseToAnyPublisher().map { $0 * 2 }.subscribe(subscriber)
    #expect(subscriber.values == [2])
    #expect(subscriber.completions == 0)
  }

  @Test func cancelReleasesTheSubscriberWhileTheSubscriptionLives() {
    weak var weakHolder: SubscriptionHolder<Int, Never>?
    var subscription: (any Subscription)?
    do {
      let holder = SubscriptionHolder<Int, Never>()
      weakHolder = holder
      (1...10).publisher.subscribe(holder)
      subscription = holder.subscription
      subscription?.request(.max(1))
      #expect(holder.events == 1)
      subscription?.cancel()
    }
    #expect(weakHolder == nil)
    subscription?.request(.max(1))
    subscription?.cancel()
  }

  @Test func demandFromEightThreadsDeliversEachElementOnceInOrder() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    (0..<4_000).publisher.subscribe(recorder)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 {
        recorder.request(.max(1))
      }
    }
    #expect(recorder.values == Array(0..<4_000))
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }
}
