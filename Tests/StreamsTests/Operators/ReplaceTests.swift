import Streams
import StreamsTesting
import Testing

@Suite struct ReplaceTests {
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

  @Test func mapErrorConvertsTheFailure() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], failureEnding: .failed("TestError(70)")
    ) { upstream, token in
      upstream.map { token.keep($0) }.mapError { TestError(code: $0.code * 10) }
    }
  }

  @Test func setFailureTypeChangesOnlyTheType() {
    checkContract(
      inputs: [1, 2], expected: [1, 2], expectedOnFailure: [1, 2, 0], failureEnding: .finished
    ) { upstream, token in
      upstream.map { token.keep($0) }.replaceError(with: 0).setFailureType(to: TestError.self)
    }
    let typed: AnyPublisher<Int, TestError> = Just(1).setFailureType(to: TestError.self)
      .eraseToAnyPublisher()
    let recorder = RecordingSubscriber<Int, TestError>()
    typed.subscribe(recorder)
    #expect(recorder.values == [1])
  }

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
