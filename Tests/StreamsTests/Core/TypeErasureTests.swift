import Streams
import StreamsTesting
import Testing

@Suite struct TypeErasureTests {
  @Test func anyPublisherForwardsEverything() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1), demandPerValue: .max(1))
    (1...3).publisher.eraseToAnyPublisher().subscribe(recorder)
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func erasingTwiceKeepsBehaviour() {
    let erased = Just(5).eraseToAnyPublisher().eraseToAnyPublisher()
    var value: Int?
    _ = erased.sink { value = $0 }
    #expect(value == 5)
  }

  @Test func anySubscriberFromClosures() {
    var values: [Int] = []
    var finished = false
    let subscriber = AnySubscriber<Int, Never>(
      receiveSubscription: { $0.request(.max(2)) },
      receiveValue: {
        values.append($0)
        return .none
      },
      receiveCompletion: { _ in finished = true })
    (1...5).publisher.subscribe(subscriber)
    #expect(values == [1, 2])
    #expect(!finished)
  }

  @Test func anySubscriberKeepsIdentifierOfWrapped() {
    let recorder = RecordingSubscriber<Int, Never>()
    let erased = AnySubscriber(recorder)
    #expect(erased.combineIdentifier == recorder.combineIdentifier)
    #expect(AnySubscriber(erased).combineIdentifier == recorder.combineIdentifier)
  }

  @Test func anySubscriberWrappingSubjectForwards() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = subject.sink { received.append($0) }
    (1...3).publisher.subscribe(AnySubscriber(subject))
    #expect(received == [1, 2, 3])
    withExtendedLifetime(cancellable) {}
  }

  @Test func combineIdentifiersAreDistinct() {
    let identifiers = (0..<1000).map { _ in CombineIdentifier() }
    #expect(Set(identifiers).count == 1000)
  }
}
