import Streams
import StreamsTesting
import Testing

@Suite struct CountTests {
  @Test func countHonoursTheContract() {
    checkContract(
      inputs: [5, 6, 7], expected: [3], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.map { token.keep($0) }.count()
    }
    checkContract(inputs: [], expected: [0], expectedOnFailure: [], deliversWhileRunning: false) {
      upstream, token in
      upstream.map { token.keep($0) }.count()
    }
  }
}
