import Streams
import StreamsTesting
import Testing

@Suite struct UntilOutputTests {
  @Test func prefixFinishesOnOtherOutput() {
    let upstream = ManualPublisher<Int, Never>()
    let other = PassthroughSubject<Void, TestFailure>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    upstream.send(1)
    other.send()
    upstream.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)
  }

  @Test func prefixIgnoresOtherCompletion() {
    let upstream = PassthroughSubject<Int, Never>()
    let other = PassthroughSubject<Void, TestFailure>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.prefix(untilOutputFrom: other).subscribe(recorder)
    other.send(completion: .failure(.boom))
    upstream.send(1)
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
  }

  @Test func dropPassesValuesAfterOtherOutput() {
    let upstream = ManualPublisher<Int, Never>()
    let other = PassthroughSubject<Void, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    upstream.drop(untilOutputFrom: other).subscribe(recorder)
    upstream.send(1)
    #expect(upstream.demandLog == [.max(2), .max(1)])
    other.send()
    upstream.send(2)
    upstream.send(3)
    #expect(recorder.values == [2, 3])
  }

  @Test func dropFinishesWhenOtherFinishesWithoutOutput() {
    let upstream = ManualPublisher<Int, TestFailure>()
    let other = PassthroughSubject<Void, TestFailure>()
    let recorder = RecordingSubscriber<Int, TestFailure>()
    upstream.drop(untilOutputFrom: other).subscribe(recorder)
    other.send(completion: .finished)
    #expect(recorder.completion == .finished)
    #expect(upstream.cancelCount == 1)

    let failingUpstream = ManualPublisher<Int, TestFailure>()
    let failingOther = PassthroughSubject<Void, TestFailure>()
    let failing = RecordingSubscriber<Int, TestFailure>()
    failingUpstream.drop(untilOutputFrom: failingOther).subscribe(failing)
    failingOther.send(completion: .failure(.boom))
    #expect(failing.completion == .failure(.boom))
  }
}
