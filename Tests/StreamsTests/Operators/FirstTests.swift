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
}
