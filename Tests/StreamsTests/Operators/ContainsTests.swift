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

  @Test func allSatisfyDeliversTrueWhenEveryValuePasses() {
    checkContract(
      inputs: [1, 2, 3], expected: [true], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.allSatisfy { token.keep($0 < 5) }
    }
    checkContract(inputs: [], expected: [true], expectedOnFailure: [], deliversWhileRunning: false)
    { upstream, token in
      upstream.allSatisfy { token.keep($0 < 5) }
    }
  }

  @Test func allSatisfyStopsAtTheFirstFailingValue() {
    checkContract(
      inputs: [1, 2, 3], expected: [false], expectedOnFailure: [false], failureEnding: .finished
    ) { upstream, token in
      upstream.allSatisfy { token.keep($0 < 2) }
    }
  }

  @Test func tryAllSatisfyHonoursTheContractAndFailsWhenThePredicateThrows() {
    checkContract(
      inputs: [1, 2, 3], expected: [true], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.tryAllSatisfy { token.keep($0 < 5) }
    }
    let recorder = RecordingSubscriber<Bool, any Error>()
    (1...3).publisher.tryAllSatisfy { _ in throw TestError(code: 6) }.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    #expect(recorder.ending == .failed("TestError(6)"))
  }
}
