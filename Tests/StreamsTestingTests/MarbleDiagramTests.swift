import Streams
import StreamsTesting
import Testing

@Suite struct MarbleDiagramTests {
  @Test func parsesTicksValuesGroupsAndCompletion() throws {
    let diagram = try MarbleDiagram("-a-[bc]--d|")
    #expect(diagram.events.map(\.tick) == [1, 3, 3, 6, 7])
    #expect(
      diagram.events.map(\.event) == [
        .value("a"), .value("b"), .value("c"), .value("d"), .finished,
      ])
    let failing = try MarbleDiagram("ab#")
    #expect(failing.events.map(\.event) == [.value("a"), .value("b"), .failure])
  }

  @Test(arguments: ["-a-b--c|", "a", "[ab]-c#", "--[a|]", "abc", "-[xyz]-x"])
  func roundTrips(diagram: String) throws {
    #expect(try MarbleDiagram(diagram).description == diagram)
  }

  @Test func malformedDiagramsNameTheCulprit() {
    let cases: [(String, MarbleError.Code, Int)] = [
      ("-[ab", .unclosedGroup, 1),
      ("a]", .unopenedGroup, 1),
      ("[a[b]]", .nestedGroup, 2),
      ("a[]", .emptyGroup, 1),
      ("a|b", .eventAfterCompletion, 2),
      ("[a-]", .tickInGroup, 2),
    ]
    for (diagram, code, position) in cases {
      #expect {
        try MarbleDiagram(diagram)
      } throws: { error in
        guard let error = error as? MarbleError else { return false }
        return error.code == code && error.position == position && !error.message.isEmpty
      }
    }
  }

  @Test func publisherPlaysDiagramAndRecordRendersIt() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbles("-a-b--c|")
    #expect(scheduler.record(source).description == "-a-b--c|")
  }

  @Test func valuesDictionaryAndError() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbles(
      "-a-[bc]#", values: ["a": 1, "b": 2, "c": 3], error: MarbleFailure(),
      tick: .milliseconds(10))
    let recorder = RecordingSubscriber<Int, MarbleFailure>(clock: scheduler.clock)
    source.subscribe(recorder)
    scheduler.run()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.completion == .failure(MarbleFailure()))
    #expect(
      recorder.timedEvents.compactMap(\.time) == [
        0, 10_000_000, 30_000_000, 30_000_000, 40_000_000,
      ])
    #expect(throws: MarbleError.self) {
      try scheduler.marbles("a-z", values: ["a": 1], error: MarbleFailure())
    }
  }

  @Test func debounceAsMarbles() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.marbles("ab--c-d|")
    let output = scheduler.record(source.debounce(for: .seconds(2), scheduler: scheduler))
    #expect(output == (try MarbleDiagram("---b---|")))
  }

  @Test func mergeAsMarbles() throws {
    let scheduler = TestScheduler()
    let left = try scheduler.marbles("a-c|")
    let right = try scheduler.marbles("-b-d|")
    #expect(scheduler.record(left.merge(with: right)).description == "abcd|")
  }

  @Test func recordForFixedTicksStopsTheClock() throws {
    let scheduler = TestScheduler()
    let ticks = scheduler.publisher(every: .seconds(1)).map { _ in Character("t") }
    #expect(scheduler.record(ticks, ticks: 3).description == "-ttt")
  }
}
