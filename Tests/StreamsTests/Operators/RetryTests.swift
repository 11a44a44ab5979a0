import Streams
import StreamsTesting
import Testing

@Suite struct RetryTests {
  @Test func retryHonoursTheContract() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], expectedOnFailure: [1, 2], failureEnding: .none
    ) { upstream, token in
      upstream.map { token.keep($0) }.retry(1)
    }
  }

  @Test func resubscribesUntilTheUpstreamSucceeds() {
    var attempts = 0
    let recorder = RecordingSubscriber<Int, TestError>(
      initialDemand: .max(1), demandPerValue: .max(1))
    Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      if attempts < 3 {
        return Fail(error: TestError(code: attempts)).eraseToAnyPublisher()
      }
      return (1...2).publisher.setFailureType(to: TestError.self).eraseToAnyPublisher()
    }.retry(5).subscribe(recorder)
    #expect(attempts == 3)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func forwardsTheLastFailureWhenRetriesRunOut() {
    var attempts = 0
    let recorder = RecordingSubscriber<Int, TestError>()
    Deferred { () -> Fail<Int, TestError> in
      attempts += 1
      return Fail(error: TestError(code: attempts))
    }.retry(2).subscribe(recorder)
    #expect(attempts == 3)
    #expect(recorder.ending == .failed("TestError(3)"))
  }

  @Test func newSubscriptionIsAskedForTheDemandNotYetServed() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(3))
    upstream.retry(1).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(TestError(code: 1)))
    #expect(upstream.subscriptionCount == 2)
    #expect(upstream.demandLog == [.max(3), .max(2)])
  }

  @Test func negativeRetryCountRetriesWithoutLimit() {
    var attempts = 0
    let recorder = RecordingSubscriber<Int, TestError>()
    Deferred { () -> AnyPublisher<Int, TestError> in
      attempts += 1
      if attempts < 50 {
        return Fail(error: TestError(code: attempts)).eraseToAnyPublisher()
      }
      return Just(7).setFailureType(to: TestError.self).eraseToAnyPublisher()
    }.retry(-1).subscribe(recorder)
    #expect(attempts == 50)
    #expect(recorder.values == [7])
    #expect(recorder.completion == .finished)
  }

  @Test func manySynchronousFailuresRetryInALoopAndEndWithTheLastFailure() {
    var attempts = 0
    let recorder = RecordingSubscriber<Int, TestError>()
    Deferred { () -> Fail<Int, TestError> in
      attempts += 1
      return Fail(error: TestError(code: attempts))
    }.retry(100_000).subscribe(recorder)
    #expect(attempts == 100_001)
    #expect(recorder.ending == .failed("TestError(100001)"))
  }

  @Test func theDownstreamIsHandedItsSubscriptionWhenTheFirstUpstreamSubscriptionArrives() {
    let scheduler = TestScheduler()
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .max(2))
    upstream.subscribe(on: scheduler).retry(1).subscribe(recorder)
    #expect(recorder.events.isEmpty)
    scheduler.advance()
    #expect(recorder.events.count == 1)
    #expect(upstream.demandLog == [.max(2)])
    upstream.send(completion: .failure(TestError(code: 1)))
    scheduler.advance()
    #expect(upstream.subscriptionCount == 2)
    #expect(recorder.events.count == 1)
    #expect(upstream.demandLog == [.max(2), .max(2)])
    #expect(recorder.violations.isEmpty)
  }

  @Test func anUpstreamCompletingWithoutSubscribingStillHandsTheDownstreamASubscriptionFirst() {
    let recorder = RecordingSubscriber<Int, TestError>()
    CompletingWithoutSubscription().retry(1).subscribe(recorder)
    #expect(recorder.events.count == 2)
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }
}

/// A publisher that finishes its subscriber without handing it a subscription (out of contract).
private struct CompletingWithoutSubscription: Publisher {
  typealias Output = Int
  typealias Failure = TestError

  func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
    subscriber.receive(completion: .finished)
  }
}
