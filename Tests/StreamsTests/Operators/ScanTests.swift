import Streams
import StreamsTesting
import Testing

@Suite struct ScanTests {
  @Test func scanHonoursTheContract() {
    checkContract(inputs: [1, 2, 3], expected: [1, 3, 6]) { upstream, token in
      upstream.scan(0) { token.keep($0 + $1) }
    }
  }

  @Test func eachSubscriptionStartsFromTheInitialResult() {
    let publisher = (1...3).publisher.eraseToAnyPublisher().scan(10, +)
    var first: [Int] = []
    var second: [Int] = []
    _ = publisher.sink { first.append($0) }
    _ = publisher.sink { second.append($0) }
    #expect(first == [11, 13, 16])
    #expect(second == first)
  }

  @Test func tryScanHonoursTheContract() {
    checkContract(inputs: [1, 2, 3], expected: [1, 3, 6]) { upstream, token in
      upstream.tryScan(0) { token.keep($0 + $1) }
    }
  }

  @Test func tryScanFailsAndCancelsUpstreamWhenTheClosureThrows() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, any Error>()
    upstream.tryScan(0) { sum, value in
      if value == 3 { throw TestError(code: 3) }
      return sum + value
    }.subscribe(recorder)
    for value in 1...4 {
      upstream.send(value)
    }
    #expect(recorder.values == [1, 3])
    #expect(recorder.ending == .failed("TestError(3)"))
    #expect(upstream.cancelCount == 1)
  }
}
