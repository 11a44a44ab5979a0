import Streams
import StreamsTesting
import Testing

@Suite struct BreakpointTests {
  @Test func closuresThatSayNoLetEveryEventThrough() {
    var seen: [String] = []
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    upstream.breakpoint(
      receiveSubscription: { _ in
        seen.append("subscription")
        return false
      },
      receiveOutput: { value in
        seen.append("value \(value)")
        return false
      },
      receiveCompletion: { _ in
        seen.append("completion")
        return false
      }
    ).subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    #expect(seen == ["subscription", "value 1", "completion"])
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.boom))
  }

  @Test func breakpointOnErrorPassesValuesAndAFinish() {
    let recorder = RecordingSubscriber<Int, TestError>()
    Record<Int, TestError>(output: [1, 2], completion: .finished).breakpointOnError()
      .subscribe(recorder)
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .finished)
  }
}
