import Streams
import StreamsTesting
import Testing

@Suite struct MapTests {
  @Test func mapHonoursTheContract() {
    checkContract(inputs: [1, 2, 3], expected: [10, 20, 30]) { upstream, token in
      upstream.map { token.keep($0 * 10) }
    }
  }

  @Test func fusedMapsApplyInOrder() {
    checkContract(inputs: [1, 2], expected: ["11", "21"]) { upstream, token in
      upstream.map { token.keep($0 * 10) }.map { $0 + 1 }.map(\.description)
    }
  }

  @Test func passesDemandStraightThrough() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
    upstream.map { $0 + 1 }.subscribe(recorder)
    #expect(upstream.demandLog == [.max(3)])
  }

  @Test func replaceNilReplacesOnlyNil() {
    checkContract(inputs: [1, 0, 3], expected: [1, -1, 3]) { upstream, token in
      upstream.map { token.keep($0 == 0 ? nil : $0) }.replaceNil(with: -1)
    }
  }

  @Test func mapThenTryMapFuseIntoOneTryMap() {
    let upstream = ManualPublisher<Int, Never>()
    let fused: Publishers.TryMap<ManualPublisher<Int, Never>, String> =
      upstream.map { $0 + 1 }.tryMap { value in
        guard value < 3 else { throw TestError.boom }
        return "\(value)"
      }
    let recorder = RecordingSubscriber<String, any Error>()
    fused.subscribe(recorder)
    upstream.send(1)
    upstream.send(2)
    #expect(recorder.values == ["2"])
    #expect(upstream.cancelCount == 1)
  }

  @Test func tryMapThenMapFuseIntoOneTryMap() {
    let fused: Publishers.TryMap<Publishers.Sequence<[Int], Never>, Int> =
      Publishers.Sequence(sequence: [1, 2]).tryMap { $0 * 2 }.map { $0 + 1 }
    let recorder = RecordingSubscriber<Int, any Error>()
    fused.subscribe(recorder)
    #expect(recorder.values == [3, 5])
  }
}
