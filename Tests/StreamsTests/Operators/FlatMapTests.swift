import Streams
import StreamsTesting
import Testing

@Suite struct FlatMapTests {
  @Test func mergesInnerPublishersAndFinishesAfterAll() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = (0..<2).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.flatMap { inners[$0] }.subscribe(recorder)
    upstream.send(0)
    upstream.send(1)
    inners[1].send(10)
    inners[0].send(1)
    upstream.send(completion: .finished)
    inners[0].send(completion: .finished)
    #expect(recorder.completion == nil)
    inners[1].send(completion: .finished)
    #expect(recorder.values == [10, 1])
    #expect(recorder.completion == .finished)
  }

  @Test func maxPublishersLimitsConcurrentInners() {
    let upstream = ManualPublisher<Int, Never>()
    let inners = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = RecordingSubscriber<Int, Never>()
    upstream.flatMap(maxPublishers: .max(2)) { inners[$0] }.subscribe(recorder)
    #expect(upstream.demandLog == [.max(2)])
    upstream.send(0)
    upstream.send(1)
    inners[0].send(completion: .finished)
    #expect(upstream.demandLog == [.max(2), .max(1)])
  }

  @Test func innerFailureCancelsEverything() {
    let upstream = ManualPublisher<Int, TestFailure>()
    let other = ManualPublisher<Int, TestFailure>()
    let failing = PassthroughSubject<Int, TestFailure>()
    let recorder = RecordingSubscriber<Int, TestFailure>()
    upstream.flatMap { $0 == 0 ? other.eraseToAnyPublisher() : failing.eraseToAnyPublisher() }
      .subscribe(recorder)
    upstream.send(0)
    upstream.send(1)
    failing.send(completion: .failure(.boom))
    #expect(recorder.completion == .failure(.boom))
    #expect(upstream.cancelCount == 1)
    #expect(other.cancelCount == 1)
  }

  @Test func finiteDemandIsRespectedAcrossInners() {
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(3))
    (0..<4).publisher.flatMap { value in (0..<3).publisher.map { value * 10 + $0 } }
      .subscribe(recorder)
    #expect(recorder.values.count == 3)
    recorder.request(.unlimited)
    #expect(recorder.values.count == 12)
    #expect(Set(recorder.values) == Set((0..<4).flatMap { v in (0..<3).map { v * 10 + $0 } }))
    #expect(recorder.completion == .finished)
    #expect(recorder.violations.isEmpty)
  }

  @Test func flatMapOverloadsWhereOneSideCannotFail() {
    let failingInner:
      Publishers.FlatMap<
        Fail<Int, TestFailure>,
        Publishers.SetFailureType<PassthroughSubject<Int, Never>, TestFailure>
      > = PassthroughSubject<Int, Never>().flatMap { _ in Fail<Int, TestFailure>(error: .boom) }
    _ = failingInner

    let upstream = PassthroughSubject<Int, TestFailure>()
    let recorder = RecordingSubscriber<Int, TestFailure>()
    let neverFailingInner:
      Publishers.FlatMap<
        Publishers.SetFailureType<Just<Int>, TestFailure>, PassthroughSubject<Int, TestFailure>
      > =
        upstream.flatMap { Just($0 * 2) }
    neverFailingInner.subscribe(recorder)
    upstream.send(1)
    upstream.send(completion: .failure(.boom))
    #expect(recorder.values == [2])
    #expect(recorder.completion == .failure(.boom))

    let neither: Publishers.FlatMap<Just<Int>, PassthroughSubject<Int, Never>> =
      PassthroughSubject<Int, Never>().flatMap { Just($0) }
    _ = neither
  }

  @Test func innerPublishersAreAskedForOneValueAndEachDeliveredValueEarnsAnother() {
    let upstream = PassthroughSubject<Int, Never>()
    let inners = [ManualPublisher<Int, Never>(), ManualPublisher<Int, Never>()]
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2), demandPerValue: .none)
    upstream.flatMap { inners[$0] }.subscribe(recorder)
    upstream.send(0)
    upstream.send(1)
    #expect(inners[0].demandLog == [.max(1)])
    #expect(inners[1].demandLog == [.max(1)])
    #expect(inners[0].send(666) == [.max(1)])
    #expect(inners[0].send(777) == [.max(1)])
    #expect(inners[0].send(888) == [.none])
    #expect(inners[0].send(999) == [.none])
    #expect(recorder.values == [666, 777])
    recorder.request(.max(10))
    #expect(recorder.values == [666, 777, 888, 999])
    #expect(inners[0].demandLog == [.max(1), .max(1), .max(1)])
    #expect(inners[1].demandLog == [.max(1)])
    recorder.request(.unlimited)
    #expect(inners[0].demandLog.last == .unlimited)
    #expect(inners[1].demandLog.last == .unlimited)
    #expect(recorder.violations.isEmpty)
  }

  @Test func anInnerSubscribingWithoutDownstreamDemandIsStillAskedForOneValue() {
    let upstream = PassthroughSubject<Int, Never>()
    let inner = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<Int, Never>(initialDemand: .none)
    upstream.flatMap { _ in inner }.subscribe(recorder)
    upstream.send(0)
    #expect(inner.demandLog == [.max(1)])
    #expect(inner.send(5) == [.none])
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [5])
    #expect(inner.demandLog == [.max(1), .max(1)])
  }

}
