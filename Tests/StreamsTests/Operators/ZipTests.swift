import Streams
import StreamsTesting
import Testing

@Suite struct ZipTests {
  @Test func pairsInOrder() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let recorder = RecordingSubscriber<String, Never>()
    a.zip(b) { "\($0)\($1)" }.subscribe(recorder)
    a.send(1)
    a.send(2)
    b.send("x")
    b.send("y")
    b.send("z")
    #expect(recorder.values == ["1x", "2y"])
  }

  @Test func finishesWhenAFinishedUpstreamHasNothingLeft() {
    let a = PassthroughSubject<Int, Never>()
    let b = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<(Int, Int), Never>()
    a.zip(b).subscribe(recorder)
    a.send(1)
    a.send(2)
    a.send(completion: .finished)
    #expect(recorder.completion == nil)
    b.send(10)
    #expect(recorder.completion == nil)
    b.send(20)
    #expect(recorder.values.map(\.0) == [1, 2])
    #expect(recorder.completion == .finished)
    #expect(b.cancelCount == 1)
  }

  @Test func failsOnAnyFailure() {
    let a = ManualPublisher<Int, TestFailure>()
    let b = PassthroughSubject<Int, TestFailure>()
    let recorder = RecordingSubscriber<(Int, Int), TestFailure>()
    a.zip(b).subscribe(recorder)
    b.send(completion: .failure(.boom))
    #expect(recorder.completion == .failure(.boom))
    #expect(a.cancelCount == 1)
  }

  @Test func threeAndFour() {
    let recorder3 = RecordingSubscriber<Int, Never>()
    [1, 2].publisher.zip([10, 20].publisher, [100, 200, 300].publisher) { $0 + $1 + $2 }
      .subscribe(recorder3)
    #expect(recorder3.values == [111, 222])
    #expect(recorder3.completion == .finished)
    let recorder4 = RecordingSubscriber<Int, Never>()
    [1].publisher.zip([2].publisher, [3].publisher, [4].publisher) { $0 * $1 * $2 * $3 }
      .subscribe(recorder4)
    #expect(recorder4.values == [24])
  }

  @Test func finiteDemandAsksOneAtATime() {
    let a = ManualPublisher<Int, Never>()
    let b = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<(Int, Int), Never>(
      initialDemand: .max(1), demandPerValue: .max(1))
    a.zip(b).subscribe(recorder)
    #expect(a.demandLog == [.max(1)])
    a.send(1)
    #expect(a.demandLog == [.max(1)])
    b.send(1)
    #expect(a.demandLog == [.max(1), .max(1)])
    #expect(recorder.values.count == 1)
    #expect(recorder.violations.isEmpty)
  }

  @Test func eachRequestGoesToEveryUpstreamAsItIsAndTuplesWaitForDemand() {
    let left = ManualPublisher<Int, Never>()
    let right = ManualPublisher<Int, Never>()
    let recorder = RecordingSubscriber<String, Never>(initialDemand: .max(1))
    left.zip(right) { "\($0)\($1)" }.subscribe(recorder)
    #expect(left.demandLog == [.max(1)])
    #expect(right.demandLog == [.max(1)])
    #expect(left.send(1) == [.none])
    #expect(left.send(2) == [.none])
    #expect(right.send(1) == [.none])
    #expect(right.send(2) == [.none])
    #expect(recorder.values == ["11"])
    recorder.request(.max(2))
    #expect(recorder.values == ["11", "22"])
    #expect(left.demandLog == [.max(1), .max(2)])
    #expect(right.demandLog == [.max(1), .max(2)])
    #expect(recorder.violations.isEmpty)
  }

}
