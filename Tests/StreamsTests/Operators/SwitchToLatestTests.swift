import Streams
import StreamsTesting
import Testing

@Suite struct SwitchToLatestTests {
  @Test func followsOnlyTheLatestInner() {
    let upstream = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let first = ManualPublisher<Int, Never>()
    let second = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.switchToLatest().subscribe(recorder)
    upstream.send(first)
    first.send(1)
    upstream.send(second)
    #expect(first.cancelCount == 1)
    first.send(2)
    second.send(3)
    #expect(recorder.values == [1, 3])
  }

  @Test func finishesWhenUpstreamAndCurrentInnerFinished() {
    let upstream = PassthroughSubject<PassthroughSubject<Int, Never>, Never>()
    let inner = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.switchToLatest().subscribe(recorder)
    upstream.send(inner)
    upstream.send(completion: .finished)
    #expect(recorder.completion == nil)
    inner.send(completion: .finished)
    #expect(recorder.completion == .finished)
  }

  @Test func innerFailureFails() {
    let upstream = ManualPublisher<Fail<Int, TestError>, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    upstream.switchToLatest().subscribe(recorder)
    upstream.send(Fail(error: .boom))
    #expect(recorder.completion == .failure(.boom))
    #expect(upstream.cancelCount == 1)
  }

  @Test func switchToLatestOverloadsWhereOneSideCannotFail() {
    let outer = PassthroughSubject<PassthroughSubject<Int, TestError>, Never>()
    let recorder = RecordingSubscriber<Int, TestError>()
    outer.switchToLatest().subscribe(recorder)
    let inner = PassthroughSubject<Int, TestError>()
    outer.send(inner)
    inner.send(1)
    inner.send(completion: .failure(.boom))
    #expect(recorder.values == [1])
    #expect(recorder.completion == .failure(.boom))

    let failingOuter = PassthroughSubject<Just<Int>, TestError>()
    let second = RecordingSubscriber<Int, TestError>()
    failingOuter.switchToLatest().subscribe(second)
    failingOuter.send(Just(4))
    failingOuter.send(completion: .failure(.boom))
    #expect(second.values == [4])
    #expect(second.completion == .failure(.boom))

    let neither = PassthroughSubject<Just<Int>, Never>()
    let third = RecordingSubscriber<Int, Never>()
    neither.switchToLatest().subscribe(third)
    neither.send(Just(5))
    #expect(third.values == [5])
  }

  @Test func forwardsTheOutstandingDemandToTheInner() {
    let upstream = PassthroughSubject<ManualPublisher<Int, Never>, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(5))
    upstream.switchToLatest().subscribe(recorder)
    let first = ManualPublisher<Int, Never>()
    upstream.send(first)
    #expect(first.demandLog == [.max(5)])
    first.send(1)
    first.send(2)
    recorder.request(.max(3))
    #expect(first.demandLog == [.max(5), .max(3)])
    let second = ManualPublisher<Int, Never>()
    upstream.send(second)
    #expect(second.demandLog == [.max(6)])
    #expect(recorder.values == [1, 2])
  }
}
