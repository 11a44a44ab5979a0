import Streams
import StreamsTesting
import Testing

@Suite struct AsyncSequencePublisherTests {
  /// An async sequence that counts how many elements were pulled.
  struct Counting: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = Never
    let limit: Int
    let pulled: LifetimeCounter

    struct AsyncIterator: AsyncIteratorProtocol {
      var next = 0
      let limit: Int
      let pulled: LifetimeCounter

      mutating func next() async -> Int? {
        guard next < limit else { return nil }
        pulled.increment()
        next += 1
        return next
      }
    }

    func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(limit: limit, pulled: pulled)
    }
  }

  struct Failing: AsyncSequence, Sendable {
    typealias Element = Int
    struct AsyncIterator: AsyncIteratorProtocol {
      var sent = false
      mutating func next() async throws -> Int? {
        if sent { throw TestError(code: 7) }
        sent = true
        return 1
      }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
  }

  @Test func honoursDemandAndDoesNotPullFurther() async {
    let pulled = LifetimeCounter()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    Counting(limit: 100, pulled: pulled).publisher.subscribe(recorder)
    #expect(await eventually { recorder.values.count == 2 })
    for _ in 0..<1_000 { await Task.yield() }
    #expect(recorder.values == [1, 2])
    #expect(pulled.count == 2)
    #expect(recorder.violations.isEmpty)
    recorder.request(.max(1))
    #expect(await eventually { recorder.values.count == 3 })
    #expect(pulled.count == 3)
    recorder.cancel()
  }

  @Test func finishesWhenTheSequenceEnds() async {
    let recorder = RecordingSubscriber<Int, Never>()
    Counting(limit: 3, pulled: LifetimeCounter()).publisher.subscribe(recorder)
    #expect(await eventually { recorder.completion != nil })
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completion == .finished)
  }

  @Test func failsWithTheSequenceError() async {
    let recorder = RecordingSubscriber<Int, any Error>()
    Failing().publisher.subscribe(recorder)
    #expect(await eventually { recorder.completion != nil })
    #expect(recorder.values == [1])
    guard case .failure(let error) = recorder.completion else {
      Issue.record("expected a failure")
      return
    }
    #expect(error as? TestError == TestError(code: 7))
  }

  @Test func cancelStopsThePulling() async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    let recorder = RecordingSubscriber<Int, Never>()
    stream.publisher.subscribe(recorder)
    continuation.yield(1)
    #expect(await eventually { recorder.values == [1] })
    recorder.cancel()
    continuation.yield(2)
    continuation.finish()
    for _ in 0..<1_000 { await Task.yield() }
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
  }
}

@Suite struct FutureAsyncTests {
  @Test func futureFromAsyncOperation() async throws {
    let future = Future { () async throws -> Int in 6 * 7 }
    #expect(try await future.value == 42)
  }

  @Test func futureFromThrowingOperationFails() async {
    let future = Future { () async throws -> Int in throw TestError(code: 5) }
    await #expect(throws: TestError(code: 5)) { try await future.value }
  }

  @Test func nonThrowingFutureValueNeedsNoTry() async {
    let future = Future { () async -> String in "done" }
    #expect(await future.value == "done")
  }

  @Test func valueIsTheFirstValueAndCancelsTheRest() async throws {
    let upstream = ManualPublisher<Int, Never>()
    let first = Task { try await upstream.value }
    #expect(await eventually { upstream.requestedDemand == .max(1) })
    upstream.send(3)
    #expect(try await first.value == 3)
    #expect(upstream.cancelCount == 1)
  }

  @Test func valueOfAnEmptyPublisherThrows() async {
    await #expect(throws: StreamsError.completedWithoutValue) {
      try await Empty<Int, Never>().value
    }
  }

  @Test func valueRethrowsTheFailure() async {
    await #expect(throws: TestError(code: 2)) {
      try await Fail<Int, TestError>(error: TestError(code: 2)).value
    }
  }
}
