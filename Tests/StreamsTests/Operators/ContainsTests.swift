import Streams
import StreamsTesting
import Testing

@Suite struct ContainsTests {
  @Test func containsFindsTheValueAndStopsEarly() {
    checkContract(
      inputs: [1, 2, 3], expected: [true], expectedOnFailure: [true], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.contains(2)
    }
  }

  @Test func containsDeliversFalseWhenTheUpstreamFinishesWithoutIt() {
    checkContract(
      inputs: [1, 2, 3], expected: [false], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.map { token.keep($0) }.contains(9)
    }
  }

  @Test func containsWhereAndTryContainsWhereHonourTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [true], expectedOnFailure: [true], failureEnding: .finished
    ) { upstream, token in
      upstream.contains { token.keep($0 > 1) }
    }
    checkContract(
      inputs: [1, 2, 3], expected: [false], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.tryContains { token.keep($0 > 5) }
    }
  }

  @Test func tryContainsWhereFailsWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Bool, any Error>()
    upstream.tryContains { _ in throw TestError(code: 4) }.subscribe(recorder)
    upstream.send(1)
    #expect(recorder.ending == .failed("TestError(4)"))
    #expect(upstream.cancelCount == 1)
  }
}
