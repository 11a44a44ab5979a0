import Streams
import StreamsTesting
import Testing

@Suite struct TryMapTests {
  @Test func tryMapHonoursTheContract() {
    checkContract(inputs: [1, 2, 3], expected: [2, 4, 6]) { upstream, token in
      upstream.tryMap { token.keep($0 * 2) }
    }
  }

  @Test func throwingFailsOnceCancelsUpstreamAndDeliversNothingMore() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryMap { value in
      if value == 2 { throw TestError(code: 2) }
      return value
    }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    upstream.send(completion: .finished)
    #expect(recorder.values == [1])
    #expect(recorder.ending == .failed("TestError(2)"))
    #expect(upstream.cancelCount == 1)
    #expect(recorder.violations.isEmpty)
  }

  @Test func passesDemandThrough() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>(initialDemand: .max(2))
    upstream.tryMap { $0 }.subscribe(recorder)
    recorder.request(.max(3))
    #expect(upstream.demandLog == [.max(2), .max(3)])
  }
}
