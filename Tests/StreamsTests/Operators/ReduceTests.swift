import Streams
import StreamsTesting
import Testing

@Suite struct ReduceTests {
  @Test func reduceHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [6], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.reduce(0) { token.keep($0 + $1) }
    }
  }

  @Test func requestsUnlimitedAndWaitsForDownstreamDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.reduce(0, +).subscribe(recorder)
    #expect(upstream.demandLog == [.unlimited])
    upstream.send(4)
    upstream.send(5)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [9])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func cancelWhileAwaitingDemandDeliversNothing() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.reduce(0, +).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .finished)
    recorder.cancel()
    recorder.request(.max(1))
    #expect(recorder.events.count == 1)
  }

  @Test func tryReduceHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [6], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.tryReduce(0) { token.keep($0 + $1) }
    }
  }

  @Test func tryReduceFailsAndCancelsUpstreamWhenTheClosureThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryReduce(0) { sum, value in
      if value == 2 { throw TestError(code: 2) }
      return sum + value
    }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.ending == .failed("TestError(2)"))
    #expect(upstream.cancelCount == 1)
  }
}
