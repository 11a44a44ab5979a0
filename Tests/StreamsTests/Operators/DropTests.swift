import Streams
import StreamsTesting
import Testing

@Suite struct DropTests {
  @Test func dropFirstHonoursTheContract() {
    checkContract(inputs: [1, 2, 3, 4], expected: [3, 4]) { upstream, token in
      upstream.map { token.keep($0) }.dropFirst(2)
    }
    checkContract(inputs: [1, 2], expected: [2]) { upstream, token in
      upstream.map { token.keep($0) }.dropFirst()
    }
  }

  @Test func dropFirstAsksForTheDroppedValuesWithTheFirstRequest() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.dropFirst(2).subscribe(recorder)
    #expect(upstream.demandLog == [.max(3)])
    #expect(upstream.send(1) == [.none])
    #expect(upstream.send(2) == [.none])
    #expect(upstream.send(3) == [.none])
    #expect(recorder.values == [3])
    recorder.request(.max(2))
    #expect(upstream.demandLog == [.max(3), .max(2)])
  }
}
