import Streams
import StreamsTesting
import Testing

@Suite struct LastTests {
  @Test func lastHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [3], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.map { token.keep($0) }.last()
    }
  }

  @Test func lastWhereHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.last { token.keep($0 < 3) }
    }
  }

  @Test func tryLastWhereHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.tryLast { token.keep($0 < 3) }
    }
  }

  @Test func tryLastWhereFailsWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryLast { value in
      if value == 2 { throw TestError(code: 2) }
      return true
    }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    #expect(recorder.values.isEmpty)
    #expect(recorder.ending == .failed("TestError(2)"))
    #expect(upstream.cancelCount == 1)
  }
}
