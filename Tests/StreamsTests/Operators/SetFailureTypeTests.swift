import Streams
import StreamsTesting
import Testing

@Suite struct SetFailureTypeTests {
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
}
