import Streams
import StreamsTesting
import Testing

@Suite struct MergeTests {
  @Test func interleavesInArrivalOrderAndFinishesWhenAllFinish() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    a.merge(with: b).subscribe(recorder)
    a.send(1)
    b.send(2)
    a.send(3)
    a.send(completion: .finished)
    #expect(recorder.completion == nil)
    b.send(4)
    b.send(completion: .finished)
    #expect(recorder.values == [1, 2, 3, 4])
    #expect(recorder.completion == .finished)
  }

  @Test func failureCancelsTheOthers() {
    let a = ManualPublisher<Int, TestError>()
    let b = ManualPublisher<Int, TestError>()
    let c = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    a.merge(with: b, c).subscribe(recorder)
    b.send(completion: .failure(.boom))
    #expect(recorder.completion == .failure(.boom))
    #expect(a.cancelCount == 1)
    #expect(c.cancelCount == 1)
  }

  @Test func asksEachUpstreamForOneValueAtATimeUnderFiniteDemand() {
    let a = ManualPublisher<Int, Never>()
    let b = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
    a.merge(with: b).subscribe(recorder)
    #expect(a.demandLog == [.max(1)])
    #expect(b.demandLog == [.max(1)])
    a.send(1)
    #expect(a.demandLog == [.max(1), .max(1)])
    b.send(2)
    #expect(recorder.values == [1, 2])
    #expect(recorder.outstandingDemand == .none)
    #expect(b.demandLog == [.max(1)])
  }

  @Test func unlimitedDemandIsForwardedOnce() {
    let a = ManualPublisher<Int, Never>()
    let b = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    a.merge(with: b).subscribe(recorder)
    a.send(1)
    a.send(2)
    #expect(a.demandLog == [.unlimited])
    #expect(b.demandLog == [.unlimited])
  }

  @Test func eightUpstreamsAndMergeMany() {
    let subjects = (0..<8).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = RecordingSubscriber<Int, Never>()
    subjects[0].merge(
      with: subjects[1], subjects[2], subjects[3], subjects[4], subjects[5], subjects[6],
      subjects[7]
    ).subscribe(recorder)
    for (index, subject) in subjects.enumerated() { subject.send(index) }
    for subject in subjects { subject.send(completion: .finished) }
    #expect(recorder.values == Array(0..<8))
    #expect(recorder.completion == .finished)

    let many = RecordingSubscriber<Int, Never>()
    Publishers.MergeMany([1, 2].publisher, [3].publisher, [4, 5].publisher).subscribe(many)
    #expect(many.values == [1, 2, 3, 4, 5])
    #expect(many.completion == .finished)
    let empty = RecordingSubscriber<Int, Never>()
    Publishers.MergeMany([Just<Int>]()).subscribe(empty)
    #expect(empty.completion == .finished)
  }

  @Test func cancelCancelsEveryUpstream() {
    let a = ManualPublisher<Int, Never>()
    let b = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>()
    a.merge(with: b).subscribe(recorder)
    recorder.cancel()
    #expect(a.cancelCount == 1)
    #expect(b.cancelCount == 1)
    a.send(1)
    #expect(recorder.values.isEmpty)
  }
}

@Suite struct MergeReentrancyTests {
  @Test func valueSentFromInsideReceiveIsDeliveredAfterTheCurrentOne() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    let cancellable = a.merge(with: b).sink { value in
      received.append(value)
      if value < 3 { b.send(value + 1) }
      received.append(-value)
    }
    a.send(1)
    #expect(received == [1, -1, 2, -2, 3, -3])
    cancellable.cancel()
  }

  @Test func cancelFromInsideReceiveStopsDelivery() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.merge(with: Empty(completeImmediately: false)).sink { value in
      received.append(value)
      if value == 2 { cancellable?.cancel() }
    }
    for value in 1...4 { subject.send(value) }
    #expect(received == [1, 2])
    withExtendedLifetime(cancellable) {}
  }
}
