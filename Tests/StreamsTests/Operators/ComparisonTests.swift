import Streams
import StreamsTesting
import Testing

@Suite struct ComparisonTests {
  @Test func minAndMaxHonourTheContract() {
    checkContract(
      inputs: [3, 1, 2], expected: [1], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.map { token.keep($0) }.min()
    }
    checkContract(
      inputs: [3, 1, 2], expected: [3], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.map { token.keep($0) }.max()
    }
  }

  @Test func emptyUpstreamFinishesWithoutAValue() {
    checkContract(inputs: [], expected: [], expectedOnFailure: [], deliversWhileRunning: false) {
      upstream, token in
      upstream.map { token.keep($0) }.min()
    }
  }

  @Test func byOrderingKeepsTheFirstOfEqualExtremes() {
    let pairs = [(1, "a"), (0, "b"), (1, "c"), (0, "d")]
    var results: [String] = []
    _ = pairs.publisher.eraseToAnyPublisher().min { $0.0 < $1.0 }.sink { results.append($0.1) }
    _ = pairs.publisher.eraseToAnyPublisher().max { $0.0 < $1.0 }.sink { results.append($0.1) }
    #expect(results == ["b", "a"])
  }

  @Test func tryMinAndTryMaxHonourTheContract() {
    checkContract(
      inputs: [3, 1, 2], expected: [1], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.tryMin { token.keep($0 < $1) }
    }
    checkContract(
      inputs: [3, 1, 2], expected: [3], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.tryMax { token.keep($0 < $1) }
    }
  }

  @Test func tryMaxFailsWhenTheOrderingThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryMax { _, _ in throw TestError(code: 5) }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    #expect(recorder.ending == .failed("TestError(5)"))
    #expect(upstream.cancelCount == 1)
  }
}
