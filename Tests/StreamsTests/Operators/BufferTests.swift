import Streams
import StreamsTesting
import Testing

@Suite struct BufferTests {
  @Test func keepFullPrefetchesAndRefills() {
    let upstream = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    #expect(upstream.requestedDemand == .max(3))
    for value in 1...3 { upstream.send(value) }
    #expect(recorder.values.isEmpty)
    recorder.request(.max(2))
    #expect(recorder.values == [1, 2])
    #expect(upstream.requestedDemand == .max(5))
  }

  @Test func dropNewestAndDropOldest() {
    for (strategy, expected) in [
      (Publishers.BufferingStrategy<Never>.dropNewest, [1, 2]),
      (.dropOldest, [2, 3]),
    ] {
      let upstream = ManualPublisher<Int, Never>()
      let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
      upstream.buffer(size: 2, prefetch: .byRequest, whenFull: strategy).subscribe(recorder)
      for value in 1...3 { upstream.send(value) }
      recorder.request(.unlimited)
      #expect(recorder.values == expected)
    }
  }

  @Test func byRequestAsksUpstreamForUnlimitedAndBuffers() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(1))
    subject.buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).subscribe(recorder)
    for value in 1...4 { subject.send(value) }
    #expect(recorder.values == [1])
    recorder.request(.max(5))
    #expect(recorder.values == [1, 3, 4])

    let upstream = ManualPublisher<Int, Never>()
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .dropNewest)
      .subscribe(RecordingSubscriber<Int, Never>(initialDemand: .none))
    #expect(upstream.requestedDemand == .unlimited)
  }

  @Test func customErrorDeliversBufferedValuesBeforeTheError() {
    let upstream = ManualPublisher<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>(initialDemand: .none)
    upstream.buffer(size: 2, prefetch: .byRequest, whenFull: .customError { .full })
      .subscribe(recorder)
    for value in 1...3 { upstream.send(value) }
    #expect(upstream.cancelCount == 1)
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
    #expect(recorder.completion == .failure(.full))
  }

  @Test func finishWaitsForBufferedValues() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    subject.buffer(size: 5, prefetch: .keepFull, whenFull: .dropNewest).subscribe(recorder)
    subject.send(1)
    subject.send(completion: .finished)
    #expect(recorder.completion == nil)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    #expect(recorder.completion == .finished)
  }

  @Test func theUpstreamIsAskedBeforeTheDownstreamIsSubscribedSoASynchronousUpstreamFillsTheBuffer()
  {
    let dropping = RecordingSubscriber<Int, Never>()
    (1...10).publisher.buffer(size: 3, prefetch: .byRequest, whenFull: .dropNewest)
      .subscribe(dropping)
    #expect(dropping.values == [1, 2, 3])
    #expect(dropping.completion == .finished)

    let keepingFull = RecordingSubscriber<Int, Never>()
    (1...10).publisher.buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest)
      .subscribe(keepingFull)
    #expect(keepingFull.values == Array(1...10))
    #expect(keepingFull.completion == .finished)
    #expect(dropping.violations.isEmpty && keepingFull.violations.isEmpty)
  }
}
