import Streams
import StreamsTesting
import Testing

@Suite struct SequencePublisherOperatorsTests {
  /// Everything `publisher` delivers to a subscriber with unlimited demand, and how it ends.
  private func run<P: Publisher>(_ publisher: P) -> (values: [P.Output], ending: Ending) {
    let recorder = RecordingSubscriber<P.Output, P.Failure>()
    publisher.subscribe(recorder)
    return (recorder.values, recorder.ending)
  }

  @Test func operatorsRunEagerlyWhenApplied() {
    var calls = 0
    let mapped = [1, 2, 3].publisher.map { value -> Int in
      calls += 1
      return value * 10
    }
    #expect(calls == 3)
    #expect(mapped.sequence == [10, 20, 30])
    #expect(run(mapped).values == [10, 20, 30])
    #expect(calls == 3)
  }

  @Test func transformingOperatorsReturnSequencePublishersOfArrays() {
    let source = [3, 1, nil, 4, 4, 1].publisher
    let present: Publishers.Sequence<[Int], Never> = source.compactMap { $0 }
    let replaced: Publishers.Sequence<[Int?], Never> = source.replaceNil(with: 0)
    let odd: Publishers.Sequence<[Int], Never> = present.filter { !$0.isMultiple(of: 2) }
    let sums: Publishers.Sequence<[Int], Never> = present.scan(100) { $0 + $1 }
    let unrepeated: Publishers.Sequence<[Int], Never> = present.removeDuplicates()
    #expect(present.sequence == [3, 1, 4, 4, 1])
    #expect(replaced.sequence == [3, 1, 0, 4, 4, 1])
    #expect(odd.sequence == [3, 1, 1])
    #expect(sums.sequence == [103, 104, 108, 112, 113])
    #expect(unrepeated.sequence == [3, 1, 4, 1])
  }

  @Test func droppingAndTakingKeepTheLazySequenceTypesAndClampCounts() {
    let source = (1...5).publisher
    let dropped: Publishers.Sequence<DropFirstSequence<ClosedRange<Int>>, Never> =
      source.dropFirst(2)
    let whileSmall: Publishers.Sequence<DropWhileSequence<ClosedRange<Int>>, Never> =
      source.drop { $0 < 4 }
    let taken: Publishers.Sequence<PrefixSequence<ClosedRange<Int>>, Never> = source.prefix(2)
    let takenWhile: Publishers.Sequence<[Int], Never> = source.prefix { $0 < 3 }
    #expect(run(dropped).values == [3, 4, 5])
    #expect(run(whileSmall).values == [4, 5])
    #expect(run(taken).values == [1, 2])
    #expect(run(takenWhile).values == [1, 2])
    #expect(run(source.dropFirst(-3)).values == [1, 2, 3, 4, 5])
    #expect(run(source.prefix(-1)).values.isEmpty)
    #expect(run(source.prefix(-1)).ending == .finished)
  }

  @Test func aggregatesAreResultPublishers() {
    let source = [2, 4, 7].publisher
    let all: Result<[Int], Never>.Publisher = source.collect()
    let count: Just<Int> = source.count()
    let allEven: Result<Bool, Never>.Publisher = source.allSatisfy { $0.isMultiple(of: 2) }
    let hasSeven: Result<Bool, Never>.Publisher = source.contains(7)
    let hasBig: Result<Bool, Never>.Publisher = source.contains { $0 > 6 }
    let total: Result<Int, Never>.Publisher = source.reduce(0, +)
    #expect(run(all).values == [[2, 4, 7]])
    #expect(run(count).values == [3])
    #expect(run(allEven).values == [false])
    #expect(run(hasSeven).values == [true])
    #expect(run(hasBig).values == [true])
    #expect(run(total).values == [13])
    #expect(run(total).ending == .finished)
  }

  @Test func throwingAggregatesFailWithTheThrownError() {
    let source = [1, 2, 3].publisher
    let satisfied = source.tryAllSatisfy { _ in throw TestError(code: 1) }
    let contained = source.tryContains { _ in throw TestError(code: 2) }
    let reduced = source.tryReduce(0) { sum, value in
      guard value < 3 else { throw TestError(code: 3) }
      return sum + value
    }
    #expect(run(satisfied).ending == .failed("TestError(1)"))
    #expect(run(contained).ending == .failed("TestError(2)"))
    #expect(run(reduced).values.isEmpty)
    #expect(run(reduced).ending == .failed("TestError(3)"))
    #expect(run(source.tryReduce(0) { $0 + $1 }).values == [6])
  }

  @Test func singleElementQueriesAreOptionalPublishers() {
    let source = [5, 2, 8, 3].publisher
    let first: Optional<Int>.Publisher = source.first()
    let last: Optional<Int>.Publisher = source.last()
    let smallest: Optional<Int>.Publisher = source.min()
    let largest: Optional<Int>.Publisher = source.max()
    let firstEven: Optional<Int>.Publisher = source.first { $0.isMultiple(of: 2) }
    let lastEven: Optional<Int>.Publisher = source.last { $0.isMultiple(of: 2) }
    let byDistance: Optional<Int>.Publisher = source.min { abs($0 - 4) < abs($1 - 4) }
    let farthest: Optional<Int>.Publisher = source.max { abs($0 - 4) < abs($1 - 4) }
    let third: Optional<Int>.Publisher = source.output(at: 2)
    #expect(run(first).values == [5])
    #expect(run(last).values == [3])
    #expect(run(smallest).values == [2])
    #expect(run(largest).values == [8])
    #expect(run(firstEven).values == [2])
    #expect(run(lastEven).values == [8])
    #expect(run(byDistance).values == [5])
    #expect(run(farthest).values == [8])
    #expect(run(third).values == [8])
  }

  @Test func queriesWithoutAnAnswerFinishWithoutAValue() {
    let empty = [Int]().publisher
    for publisher in [empty.first(), empty.last(), empty.min(), empty.max(), empty.output(at: 0)] {
      #expect(run(publisher).values.isEmpty)
      #expect(run(publisher).ending == .finished)
    }
    #expect(run([1, 2].publisher.output(at: 5)).values.isEmpty)
    #expect(run([1, 2].publisher.output(at: -1)).values.isEmpty)
  }

  @Test func outputInTakesTheIndicesOfTheRangeWithinTheCollection() {
    let source = ["a", "b", "c", "d"].publisher
    let middle: Publishers.Sequence<[String], Never> = source.output(in: 1..<3)
    #expect(middle.sequence == ["b", "c"])
    #expect(source.output(in: 2..<10).sequence == ["c", "d"])
    #expect(source.output(in: -4..<1).sequence == ["a"])
    #expect(source.output(in: 6..<9).sequence.isEmpty)
  }

  @Test func unannotatedCallsPickTheMostSpecificOverload() {
    let count = [1, 2].publisher.count()
    let output = [1, 2].publisher.output(at: 1)
    let justCount: Just<Int> = count
    let optional: Optional<Int>.Publisher = output
    #expect(run(justCount).values == [2])
    #expect(run(optional).values == [2])
  }

  @Test func countOfACollectionThatCanFailIsAResultPublisher() {
    let source = Publishers.Sequence<Set<Int>, TestError>(sequence: [1, 2, 3])
    let count: Result<Int, TestError>.Publisher = source.count()
    #expect(run(count).values == [3])
  }

  @Test func appendAndPrependJoinTheElements() {
    let source = [3, 4].publisher
    #expect(source.append(5, 6).sequence == [3, 4, 5, 6])
    #expect(source.append(7...8).sequence == [3, 4, 7, 8])
    #expect(source.append([9].publisher).sequence == [3, 4, 9])
    #expect(source.prepend(1, 2).sequence == [1, 2, 3, 4])
    #expect(source.prepend(0...1).sequence == [0, 1, 3, 4])
    #expect(source.prepend([0].publisher).sequence == [0, 3, 4])
  }

  @Test func ignoreOutputAndSetFailureTypeKeepTheFailureType() {
    let source = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
    let ignored: Empty<Int, TestError> = source.ignoreOutput()
    let mapped: Publishers.Sequence<[Int], TestError> = source.map { $0 + 1 }
    let retyped: Publishers.Sequence<[Int], TestError> = [1, 2].publisher.setFailureType(
      to: TestError.self)
    #expect(run(ignored).values.isEmpty)
    #expect(run(ignored).ending == .finished)
    #expect(run(mapped).values == [2, 3])
    #expect(run(retyped).values == [1, 2])
  }

  @Test func anErasedEndlessSequenceGetsTheLazyOperators() {
    let doubled = (1...).publisher.eraseToAnyPublisher().map { $0 * 2 }.prefix(3)
    #expect(run(doubled).values == [2, 4, 6])
    #expect(run(doubled).ending == .finished)
  }
}
