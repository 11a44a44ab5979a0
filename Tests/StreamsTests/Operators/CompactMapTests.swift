import Streams
import StreamsTesting
import Testing

@Suite struct CompactMapTests {
  @Test func compactMapHonoursTheContract() {
    checkContract(inputs: [1, 2, 3, 4], expected: [20, 40]) { upstream, token in
      upstream.compactMap { token.keep($0.isMultiple(of: 2) ? $0 * 10 : nil) }
    }
  }

  @Test func nilResultRequestsOneMoreUpstream() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.compactMap { $0 > 1 ? $0 : nil }.subscribe(recorder)
    #expect(upstream.send(1) == [.max(1)])
    #expect(upstream.send(2) == [.none])
  }

  @Test func tryCompactMapHonoursTheContract() {
    checkContract(inputs: [1, 2, 3, 4], expected: [20, 40]) { upstream, token in
      upstream.tryCompactMap { token.keep($0.isMultiple(of: 2) ? $0 * 10 : nil) }
    }
  }

  @Test func tryCompactMapFailsAndCancelsUpstreamWhenTheTransformThrows() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryCompactMap { value -> Int? in
      if value == 2 { throw TestError(code: 2) }
      return value
    }.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values == [1])
    #expect(recorder.ending == .failed("TestError(2)"))
    #expect(upstream.cancelCount == 1)
  }

  @Test func compactMapThenCompactMapOrMapFuseIntoOneCompactMap() {
    let upstream = ManualPublisher<String, Never>()
    let twice: Publishers.CompactMap<ManualPublisher<String, Never>, Int> =
      upstream.compactMap { Int($0) }.compactMap { $0 > 1 ? $0 * 10 : nil }
    let mapped: Publishers.CompactMap<ManualPublisher<String, Never>, String> =
      upstream.compactMap { Int($0) }.map { "#\($0)" }
    let first = RecordingSubscriber<Int, Never>()
    let second = RecordingSubscriber<String, Never>()
    twice.subscribe(first)
    mapped.subscribe(second)
    for text in ["1", "x", "2"] { upstream.send(text) }
    #expect(first.values == [20])
    #expect(second.values == ["#1", "#2"])
  }
}
