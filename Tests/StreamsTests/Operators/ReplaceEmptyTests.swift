import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceEmptyTests {
  @Test func replaceEmptyPassesValuesThrough() {
    checkContract(inputs: [1, 2], expected: [1, 2]) { upstream, token in
      upstream.map { token.keep($0) }.replaceEmpty(with: 0)
    }
  }

  @Test func replaceEmptyDeliversTheReplacementForAnEmptyUpstream() {
    checkContract(inputs: [], expected: [0], expectedOnFailure: [], deliversWhileRunning: false) {
      upstream, token in
      upstream.map { token.keep($0) }.replaceEmpty(with: 0)
    }
  }

  @Test func replacementWaitsForDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.replaceEmpty(with: 7).subscribe(recorder)
    upstream.send(completion: .finished)
    #expect(recorder.events.count == 1)
    recorder.request(.max(1))
    #expect(recorder.values == [7])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func upstreamIsAskedForUnlimitedValuesAndExtraValuesWaitForDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.replaceEmpty(with: 0).subscribe(recorder)
    #expect(upstream.demandLog == [.max(2), .unlimited])
    upstream.send(1)
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values == [1, 2])
    recorder.request(.max(1))
    #expect(upstream.demandLog == [.max(2), .unlimited, .max(1)])
    #expect(recorder.values == [1, 2, 3])
    upstream.send(completion: .finished)
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

}
