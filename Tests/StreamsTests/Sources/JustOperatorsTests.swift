import Streams
import StreamsTesting
import Testing

@Suite struct JustOperatorsTests {
  private enum Failure: Error, Equatable {
    case rejected

    /// A failure made from a `Never` (there is none): the shape `mapError` takes.
    init(_ never: Never) { switch never {} }
  }

  @Test func mapIsAJustOfTheTransformedValue() {
    let mapped: Just<String> = Just(2).map { "\($0 * 10)" }
    #expect(mapped.output == "20")
    let recorder = RecordingSubscriber<String, Never>()
    mapped.subscribe(recorder)
    #expect(recorder.values == ["20"])
    #expect(recorder.completion == .finished)
  }

  @Test func filterAndCompactMapGiveOptionalPublishers() {
    let kept: Optional<Int>.Publisher = Just(3).filter { $0 > 2 }
    let dropped: Optional<Int>.Publisher = Just(1).filter { $0 > 2 }
    #expect(kept.output == 3)
    #expect(dropped.output == nil)
    #expect(Just("7").compactMap { Int($0) }.output == 7)
    #expect(Just("x").compactMap { Int($0) }.output == nil)
    #expect(Just(1).dropFirst().output == nil)
    #expect(Just(1).dropFirst(0).output == 1)
    #expect(Just(1).dropFirst(-1).output == 1)
    #expect(Just(1).drop { $0 > 0 }.output == nil)
    #expect(Just(1).first { $0 > 0 }.output == 1)
    #expect(Just(1).last { $0 > 5 }.output == nil)
    #expect(Just(1).output(at: 0).output == 1)
    #expect(Just(1).output(at: 1).output == nil)
    #expect(Just(1).output(in: 0..<2).output == 1)
    #expect(Just(1).output(in: 1...).output == nil)
    #expect(Just(1).prefix(1).output == 1)
    #expect(Just(1).prefix(0).output == nil)
    #expect(Just(1).prefix { $0 > 1 }.output == nil)
  }

  @Test func tryMapGivesAResultPublisherThatFailsWhenTheClosureThrows() {
    let success: Result<Int, any Error>.Publisher = Just(2).tryMap { $0 + 1 }
    #expect((try? success.result.get()) == 3)
    let failing = Just(2).tryMap { _ -> Int in throw Failure.rejected }
    let recorder = RecordingSubscriber<Int, any Error>()
    failing.subscribe(recorder)
    #expect(recorder.values.isEmpty)
    if case .failure(let error) = recorder.completion {
      #expect(error as? Failure == .rejected)
    } else {
      Issue.record("expected a failure, got \(String(describing: recorder.completion))")
    }
  }

  @Test func reducingOperatorsGiveJusts() {
    #expect(Just(4).allSatisfy { $0 > 3 }.output == true)
    #expect(Just(4).contains(where: { $0 == 5 }).output == false)
    #expect(Just(4).contains(4).output == true)
    #expect(Just(4).collect().output == [4])
    #expect(Just(4).count().output == 1)
    #expect(Just(4).min().output == 4)
    #expect(Just(4).max(by: <).output == 4)
    #expect(Just(4).first().output == 4)
    #expect(Just(4).last().output == 4)
    #expect(Just(4).removeDuplicates().output == 4)
    #expect(Just(4).replaceEmpty(with: 0).output == 4)
    #expect(Just(4).replaceError(with: 0).output == 4)
    #expect(Just(4).retry(3).output == 4)
    #expect(Just(4).reduce(10, +).result.get() == 14)
    #expect(Just(4).scan(10, +).result.get() == 14)
    #expect((try? Just(4).tryReduce(1) { $0 * $1 }.result.get()) == 4)
    #expect((try? Just(4).tryAllSatisfy { $0 > 0 }.result.get()) == true)
    #expect((try? Just(4).tryContains { $0 > 9 }.result.get()) == false)
  }

  @Test func ignoreOutputAndFailureTypes() {
    let recorder = RecordingSubscriber<Int, Never>()
    Just(1).ignoreOutput().subscribe(recorder)
    #expect(recorder.values.isEmpty)
    #expect(recorder.completion == .finished)
    let typed: Result<Int, Failure>.Publisher = Just(1).setFailureType(to: Failure.self)
    #expect((try? typed.result.get()) == 1)
    let mapped: Result<Int, Failure>.Publisher = Just(1).mapError(Failure.init)
    #expect((try? mapped.result.get()) == 1)
  }

  @Test func theTransformRunsOnceWhenTheOperatorIsApplied() {
    var calls = 0
    let mapped = Just(1).map { value -> Int in
      calls += 1
      return value + 1
    }
    #expect(calls == 1)
    mapped.subscribe(RecordingSubscriber<Int, Never>())
    mapped.subscribe(RecordingSubscriber<Int, Never>())
    #expect(calls == 1)
  }
}
