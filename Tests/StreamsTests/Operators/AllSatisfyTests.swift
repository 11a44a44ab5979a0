import Streams
import StreamsTesting
import Testing

@Suite struct AllSatisfyTests {
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
    (1...3).publisher.eraseToAnyPublisher().tryAllSatisfy { _ in throw TestError(code: 6) }
      .subscribe(recorder)
    #expect(recorder.values.isEmpty)
    #expect(recorder.ending == .failed("TestError(6)"))
  }
}
