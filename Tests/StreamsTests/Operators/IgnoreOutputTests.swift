import Streams
import StreamsTesting
import Testing

@Suite struct IgnoreOutputTests {
  @Test func ignoreOutputForwardsOnlyTheCompletion() {
    checkContract(inputs: [1, 2, 3], expected: [], deliversWhileRunning: false) {
      upstream, token in
      upstream.map { token.keep($0) }.ignoreOutput()
    }
  }

  @Test func requestsUnlimitedWhateverTheDownstreamDemand() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Never, Never>(initialDemand: .none)
    upstream.ignoreOutput().subscribe(recorder)
    #expect(upstream.requestedDemand == .unlimited)
    upstream.send(1)
    upstream.send(completion: .finished)
    #expect(recorder.completion == .finished)
  }
}
