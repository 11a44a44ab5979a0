import Streams
import StreamsTesting
import Testing

@Suite struct FirstTests {
  @Test func firstDeliversTheFirstValueAndCancelsUpstream() {
    checkContract(
      inputs: [1, 2, 3], expected: [1], expectedOnFailure: [1], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.first()
    }
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.first().subscribe(recorder)
    upstream.send(8)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.completion == .finished)
  }

  @Test func firstOfAnEmptyUpstreamFinishesWithoutAValue() {
    checkContract(inputs: [], expected: [], expectedOnFailure: []) { upstream, token in
      upstream.map { token.keep($0) }.first()
    }
  }

  @Test func firstKeepsItsValueUntilTheDownstreamAsks() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.first().subscribe(recorder)
    upstream.send(8)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [8])
    #expect(recorder.completion == .finished)
  }

  @Test func firstWhereHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [2], failureEnding: .finished
    ) { upstream, token in
      upstream.first { token.keep($0 > 1) }
    }
  }

  @Test func tryFirstWhereHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [2], expectedOnFailure: [2], failureEnding: .finished
    ) { upstream, token in
      upstream.tryFirst { token.keep($0 > 1) }
    }
  }

  @Test func tryFirstWhereFailsWhenThePredicateThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryFirst { _ in throw TestError(code: 1) }.subscribe(recorder)
    upstream.send(1)
    #expect(recorder.ending == .failed("TestError(1)"))
    #expect(upstream.cancelCount == 1)
  }

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
