import Streams
import StreamsTesting
import Testing

@Suite struct ConcatenateTests {
  @Test func appendValuesHonoursTheContract() {
    checkContract(inputs: [1, 2], expected: [1, 2, 8, 9], expectedOnFailure: [1, 2]) {
      upstream, token in
      upstream.map { token.keep($0) }.append(8, 9)
    }
  }

  @Test func prependValuesHonoursTheContract() {
    checkContract(inputs: [1, 2], expected: [8, 9, 1, 2], expectedOnFailure: [8, 9, 1, 2]) {
      upstream, token in
      upstream.map { token.keep($0) }.prepend(8, 9)
    }
  }

  @Test func sequencesAndPublishersCanBeAppendedAndPrepended() {
    var values: [Int] = []
    _ = Just(3).append([4, 5]).prepend(0...1).prepend(Just(-1)).append(Just(6)).sink {
      values.append($0)
    }
    #expect(values == [-1, 0, 1, 3, 4, 5, 6])
  }

  @Test func suffixIsSubscribedOnlyAfterThePrefixFinishesAndGetsTheRemainingDemand() {
    let prefix = ManualPublisher<Int, Never>()
    let suffix = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(4))
    prefix.append(suffix).subscribe(recorder)
    #expect(suffix.subscriptionCount == 0)
    prefix.send(1)
    prefix.send(completion: .finished)
    #expect(suffix.demandLog == [.max(3)])
    suffix.send(2)
    suffix.send(completion: .finished)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
  }

  @Test func prefixFailureSkipsTheSuffix() {
    let suffix = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    Fail<Int, TestError>(error: TestError(code: 1)).append(suffix).subscribe(recorder)
    #expect(suffix.subscriptionCount == 0)
    #expect(recorder.ending == .failed("TestError(1)"))
  }

  @Test func cancelInTheMiddleStopsTheSuffix() {
    let suffix = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    [1].publisher.append(suffix).subscribe(recorder)
    recorder.cancel()
    #expect(suffix.cancelCount == 1)
    suffix.send(2)
    #expect(recorder.values == [1])
  }
}
