import Streams
import StreamsTesting
import Testing

@Suite struct PrefixWhileTests {
  @Test func prefixWhileStopsAtTheFirstFailingValue() {
    checkContract(
      inputs: [1, 2, 5, 1], expected: [1, 2], expectedOnFailure: [1, 2], failureEnding: .finished
    ) { upstream, token in
      upstream.prefix { token.keep($0 < 3) }
    }
  }

  @Test func prefixWhileCancelsUpstreamWhenItStops() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix { $0 < 3 }.subscribe(recorder)
    upstream.send(1)
    upstream.send(4)
    #expect(upstream.cancelCount == 1)
    #expect(recorder.completion == .finished)
  }

  @Test func tryPrefixWhileHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 5, 1], expected: [1, 2], expectedOnFailure: [1, 2], failureEnding: .finished
    ) { upstream, token in
      upstream.tryPrefix { token.keep($0 < 3) }
    }
  }

  @Test func tryPrefixWhileFailsWhenThePredicateThrows() {
    let recorder = RecordingSubscriber<Int, any Error>()
    (1...5).publisher.tryPrefix { value in
      if value == 2 { throw TestError(code: 2) }
      return true
    }.subscribe(recorder)
    #expect(recorder.values == [1])
    #expect(recorder.ending == .failed("TestError(2)"))
  }
}
