import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceErrorTests {
  @Test func replaceErrorHonoursTheContract() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], expectedOnFailure: [1, 2, 0], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.replaceError(with: 0)
    }
  }

  @Test func replaceErrorWaitsForDemandAfterTheFailure() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    upstream.replaceError(with: -1).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(TestError(code: 1)))
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
    recorder.request(.max(2))
    #expect(recorder.values == [1, -1])
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }
}
