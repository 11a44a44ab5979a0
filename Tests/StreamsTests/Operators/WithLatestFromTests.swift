import Streams
import StreamsTesting
import Testing

@Suite struct WithLatestFromTests {
  @Test func combinesWithLatestAndDropsBeforeFirst() {
    let upstream = ManualPublisher<Int, Never>()
    let other = PassthroughSubject<String, Never>()
    let recorder = RecordingSubscriber<String, Never>(initialDemand: .max(5))
    upstream.withLatestFrom(other) { "\($0)\($1)" }.subscribe(recorder)
    upstream.send(1)
    #expect(upstream.demandLog == [.max(5), .max(1)])
    other.send("a")
    upstream.send(2)
    other.send("b")
    other.send(completion: .finished)
    upstream.send(3)
    #expect(recorder.values == ["2a", "3b"])
    upstream.send(completion: .finished)
    #expect(recorder.completion == .finished)
  }

  @Test func otherFailureFails() {
    let upstream = ManualPublisher<Int, TestError>()
    let other = PassthroughSubject<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    upstream.withLatestFrom(other).subscribe(recorder)
    other.send(completion: .failure(.boom))
    #expect(recorder.completion == .failure(.boom))
    #expect(upstream.cancelCount == 1)
  }
}
