import Streams
import StreamsTesting
import Testing

@Suite struct CombineLatestTests {
  @Test func publishesOnceEachHasPublished() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<String, Never>()
    let recorder = RecordingSubscriber<String, Never>()
    a.combineLatest(b) { "\($0)\($1)" }.subscribe(recorder)
    a.send(1)
    a.send(2)
    b.send("x")
    a.send(3)
    b.send("y")
    #expect(recorder.values == ["2x", "3x", "3y"])
  }

  @Test func finishesWhenAllFinishAndFailsOnAny() {
    let a = PassthroughSubject<Int, TestError>()
    let b = PassthroughSubject<Int, TestError>()
    let recorder = RecordingSubscriber<Int, TestError>()
    a.combineLatest(b, +).subscribe(recorder)
    a.send(1)
    b.send(2)
    a.send(completion: .finished)
    b.send(3)
    #expect(recorder.values == [3, 4])
    #expect(recorder.completion == nil)
    b.send(completion: .finished)
    #expect(recorder.completion == .finished)

    let c = ManualPublisher<Int, TestError>()
    let d = ManualPublisher<Int, TestError>()
    let failing = RecordingSubscriber<(Int, Int), TestError>()
    c.combineLatest(d).subscribe(failing)
    c.send(completion: .failure(.boom))
    #expect(failing.completion == .failure(.boom))
    #expect(d.cancelCount == 1)
  }

  @Test func threeAndFourUpstreams() {
    let recorder3 = RecordingSubscriber<Int, Never>()
    Just(1).combineLatest(Just(2), Just(3)) { $0 + $1 + $2 }.subscribe(recorder3)
    #expect(recorder3.values == [6])
    #expect(recorder3.completion == .finished)
    let recorder4 = RecordingSubscriber<String, Never>()
    Just(1).combineLatest(Just("a"), Just(2.5), Just(true)) { "\($0)\($1)\($2)\($3)" }
      .subscribe(recorder4)
    #expect(recorder4.values == ["1a2.5true"])
  }

  @Test func collectionCombinesInOrder() {
    let subjects = (0..<3).map { _ in PassthroughSubject<Int, Never>() }
    let recorder = RecordingSubscriber<[Int], Never>()
    subjects.combineLatest().subscribe(recorder)
    subjects[2].send(30)
    subjects[0].send(10)
    subjects[1].send(20)
    subjects[0].send(11)
    #expect(recorder.values == [[10, 20, 30], [11, 20, 30]])
    let empty = RecordingSubscriber<[Int], Never>()
    [PassthroughSubject<Int, Never>]().combineLatest().subscribe(empty)
    #expect(empty.completion == .finished)
  }

  @Test func respectsDemand() {
    let a = PassthroughSubject<Int, Never>()
    let b = PassthroughSubject<Int, Never>()
    let recorder = RecordingSubscriber<(Int, Int), Never>(initialDemand: .max(1))
    a.combineLatest(b).subscribe(recorder)
    a.send(1)
    b.send(1)
    a.send(2)
    b.send(2)
    #expect(recorder.values.count == 1)
    #expect(recorder.violations.isEmpty)
  }
}
