import Dispatch
import Streams
import StreamsTesting
import Testing

@Suite struct SourcesTests {
  @Test func justWaitsForDemandThenFinishes() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    Just(7).subscribe(recorder)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [7])
    #expect(recorder.completion == .finished)
    recorder.request(.max(1))
    #expect(recorder.values == [7])
  }

  @Test func justCancelledBeforeDemandDeliversNothing() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    Just(7).subscribe(recorder)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.values.isEmpty)
    #expect(recorder.completion == nil)
  }

  @Test func justRequestedFromManyThreadsDeliversOnceAndARacingCancelLeavesAtMostThat() {
    for round in 0..<500 {
      let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
      Just(round).subscribe(recorder)
      let cancels = round % 2 == 0
      DispatchQueue.concurrentPerform(iterations: 4) { index in
        if cancels && index == 0 { recorder.cancel() } else { recorder.request(.max(1)) }
      }
      if cancels {
        #expect(recorder.values.count == (recorder.completion == nil ? 0 : 1))
      } else {
        #expect(recorder.values == [round])
        #expect(recorder.completion == .finished)
      }
      #expect(recorder.violations.isEmpty)
    }
  }

  @Test func emptyCompletesOrNot() {
    let finishing = RecordingSubscriber<Int, Never>()
    Empty<Int, Never>().subscribe(finishing)
    #expect(finishing.isSubscribed)
    #expect(finishing.completion == .finished)
    let silent = RecordingSubscriber<Int, Never>()
    Empty<Int, Never>(completeImmediately: false).subscribe(silent)
    #expect(silent.isSubscribed)
    #expect(silent.completion == nil)
  }

  @Test func failFailsAtOnce() {
    let recorder = RecordingSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError(code: 3)).subscribe(recorder)
    #expect(recorder.completion == .failure(TestError(code: 3)))
  }

  @Test func deferredCreatesAPublisherPerSubscriber() {
    var created = 0
    let deferred = Deferred { () -> Just<Int> in
      created += 1
      return Just(created)
    }
    #expect(created == 0)
    var values: [Int] = []
    _ = deferred.sink { values.append($0) }
    _ = deferred.sink { values.append($0) }
    #expect(values == [1, 2])
  }

  @Test func optionalPublisher() {
    var values: [Int] = []
    var finished = 0
    _ = Optional(3).publisher.sink(
      receiveCompletion: { _ in finished += 1 }, receiveValue: { values.append($0) })
    _ = Int?.none.publisher.sink(
      receiveCompletion: { _ in finished += 1 }, receiveValue: { values.append($0) })
    #expect(values == [3])
    #expect(finished == 2)
  }

  @Test func emptySequenceFinishesAtOnce() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    [Int]().publisher.subscribe(recorder)
    #expect(recorder.completion == .finished)
  }

  @Test func sequenceCancelFromInsideReceiveStopsDelivery() {
    var received: [Int] = []
    var cancellable: AnyCancellable?
    let sink = Subscribers.Sink<Int, Never>(
      receiveCompletion: { _ in Issue.record("no completion after cancel") },
      receiveValue: {
        received.append($0)
        if $0 == 3 { cancellable?.cancel() }
      })
    cancellable = AnyCancellable(sink)
    (1...10).publisher.subscribe(sink)
    #expect(received == [1, 2, 3])
  }

  @Test func sequenceIsNotPulledBeyondDemand() {
    var pulled = 0
    let elements = (1...100).lazy.map { value -> Int in
      pulled += 1
      return value
    }
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
    elements.publisher.subscribe(recorder)
    #expect(recorder.values == [1, 2, 3])
    #expect(pulled == 4)
  }
}

@Suite struct FutureTests {
  @Test func replaysResultToEverySubscriber() {
    let future = Future<Int, Never> { promise in promise(.success(42)) }
    let first = RecordingSubscriber<Int, Never>()
    let second = RecordingSubscriber<Int, Never>(initialDemand: .none)
    future.subscribe(first)
    future.subscribe(second)
    #expect(first.values == [42])
    #expect(first.completion == .finished)
    #expect(second.values.isEmpty)
    second.request(.max(1))
    #expect(second.values == [42])
  }

  @Test func onlyTheFirstFulfilmentCounts() {
    var keep: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { keep = $0 }
    let recorder = RecordingSubscriber<Int, TestError>()
    future.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    keep?(.failure(TestError(code: 1)))
    keep?(.success(2))
    #expect(recorder.values.isEmpty)
    #expect(recorder.completion == .failure(TestError(code: 1)))
  }

  @Test func promiseFromAnotherThread() {
    let ready = DispatchSemaphore(value: 0)
    let future = Future<Int, Never> { promise in
      DispatchQueue.global().async { promise(.success(5)) }
    }
    var received: Int?
    let cancellable = future.sink {
      received = $0
      ready.signal()
    }
    #expect(ready.wait(timeout: .now() + 10) == .success)
    #expect(received == 5)
    withExtendedLifetime(cancellable) {}
  }

  @Test func cancelledSubscriberGetsNothingAndIsReleased() {
    var keep: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { keep = $0 }
    weak var weakRecorder: RecordingSubscriber<Int, Never>?
    do {
      let recorder = RecordingSubscriber<Int, Never>()
      weakRecorder = recorder
      future.subscribe(recorder)
      recorder.cancel()
    }
    keep?(.success(1))
    #expect(weakRecorder == nil)
  }

  @Test func failureReachesSubscribersWithoutDemand() {
    var keep: Future<Int, TestError>.Promise?
    let future = Future<Int, TestError> { keep = $0 }
    let waiting = RecordingSubscriber<Int, TestError>(initialDemand: .none)
    future.subscribe(waiting)
    keep?(.failure(TestError(code: 7)))
    #expect(waiting.completion == .failure(TestError(code: 7)))
    let late = RecordingSubscriber<Int, TestError>(initialDemand: .none)
    future.subscribe(late)
    #expect(late.completion == .failure(TestError(code: 7)))
  }

  @Test func valueFulfilledLaterWaitsForDemand() {
    var keep: Future<Int, Never>.Promise?
    let future = Future<Int, Never> { keep = $0 }
    let waiting = RecordingSubscriber<Int, Never>(initialDemand: .none)
    future.subscribe(waiting)
    keep?(.success(3))
    #expect(waiting.values.isEmpty)
    #expect(waiting.completion == nil)
    waiting.request(.max(1))
    #expect(waiting.values == [3])
    #expect(waiting.completion == .finished)
    #expect(waiting.violations.isEmpty)
  }
}
