import Streams
import StreamsTesting
import Testing

@Suite struct CatchTests {
  @Test func catchMovesToTheReplacementPublisher() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], expectedOnFailure: [1, 2, 99], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.catch { _ in Just(99) }
    }
  }

  @Test func replacementIsAskedForTheDemandNotYetServed() {
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
    first.catch { _ in second }.subscribe(recorder)
    #expect(first.demandLog == [.max(3)])
    first.send(1)
    first.send(completion: .failure(TestError(code: 1)))
    #expect(second.demandLog == [.max(2)])
    second.send(2)
    second.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
  }

  @Test func cancelReachesTheReplacement() {
    let first = ManualPublisher<Int, TestError>()
    let second = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    first.catch { _ in second }.subscribe(recorder)
    first.send(completion: .failure(TestError(code: 1)))
    recorder.cancel()
    #expect(second.cancelCount == 1)
    second.send(5)
    #expect(recorder.values.isEmpty)
  }

  @Test func tryCatchHonoursTheContract() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], expectedOnFailure: [1, 2, 99], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.tryCatch { _ in Just(99) }
    }
  }

  @Test func tryCatchFailsWhenTheHandlerThrows() {
    let recorder = RecordingSubscriber<Int, any Error>()
    Fail<Int, TestError>(error: TestError(code: 1))
      .tryCatch { error -> Just<Int> in throw TestError(code: error.code + 1) }
      .subscribe(recorder)
    #expect(recorder.ending == .failed("TestError(2)"))
  }

  @Test func tryCatchForwardsTheReplacementsFailure() {
    let recorder = RecordingSubscriber<Int, any Error>()
    Fail<Int, TestError>(error: TestError(code: 1))
      .tryCatch { _ in Fail<Int, TestError>(error: TestError(code: 3)) }
      .subscribe(recorder)
    #expect(recorder.ending == .failed("TestError(3)"))
  }
}
