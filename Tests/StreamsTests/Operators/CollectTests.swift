import Streams
import StreamsTesting
import Testing

@Suite struct CollectTests {
  @Test func collectHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3], expected: [[1, 2, 3]], expectedOnFailure: [], deliversWhileRunning: false
    ) { upstream, token in
      upstream.map { token.keep($0) }.collect()
    }
  }

  @Test func collectDeliversAnEmptyArrayForAnEmptyUpstream() {
    checkContract(inputs: [], expected: [[]], expectedOnFailure: [], deliversWhileRunning: false) {
      upstream, token in
      upstream.map { token.keep($0) }.collect()
    }
  }

  @Test func collectByCountHonoursTheContract() {
    checkContract(
      inputs: [1, 2, 3, 4, 5], expected: [[1, 2], [3, 4], [5]],
      expectedOnFailure: [
        [1, 2], [3, 4],
      ]
    ) { upstream, token in
      upstream.map { token.keep($0) }.collect(2)
    }
  }

  @Test func collectByCountScalesDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<[Int], Never>(
      initialDemand: .max(2), demandPerValue: .max(1))
    upstream.collect(3).subscribe(recorder)
    #expect(upstream.demandLog == [.max(6)])
    upstream.send(1)
    upstream.send(2)
    #expect(upstream.send(3) == [.max(3)])
    #expect(recorder.values == [[1, 2, 3]])
  }

  @Test func collectByCountWithACountBelowOneCollectsSingles() {
    var arrays: [[Int]] = []
    _ = (1...2).publisher.collect(0).sink { arrays.append($0) }
    #expect(arrays == [[1], [2]])
  }
}
