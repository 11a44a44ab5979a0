import Streams
import StreamsTesting
import Testing

@Suite struct AssertNoFailureTests {
  @Test func assertNoFailurePassesEverythingThrough() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], expectedOnFailure: [1, 2, 0], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.replaceError(with: 0).assertNoFailure("never fails")
    }
    let recorder = RecordingSubscriber<Int, Never>()
    (1...2).publisher.setFailureType(to: TestError.self).assertNoFailure().subscribe(recorder)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
  }

  @Test func assertNoFailureStopsTheProcessOnFailure() async {
    await #expect(processExitsWith: .failure) {
      _ = Fail<Int, TestError>(error: TestError(code: 1)).assertNoFailure("boom").sink { _ in }
    }
  }
}
