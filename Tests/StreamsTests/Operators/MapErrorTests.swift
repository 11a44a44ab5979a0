import Streams
import StreamsTesting
import Testing

@Suite struct MapErrorTests {
  @Test func mapErrorConvertsTheFailure() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], failureEnding: .failed("TestError(70)")
    ) { upstream, token in
      upstream.map { token.keep($0) }.mapError { TestError(code: $0.code * 10) }
    }
  }
}
