import Streams
import StreamsTesting
import Testing

@Suite struct OptionalPublisherOperatorsTests {
  @Test func mapFilterAndCompactMapStayOptionalPublishers() {
    let some = Optional(3).publisher
    let none = Optional<Int>.none.publisher
    let mapped: Optional<String>.Publisher = some.map { "\($0)" }
    #expect(mapped.output == "3")
    #expect(none.map { $0 + 1 }.output == nil)
    #expect(some.filter { $0 > 5 }.output == nil)
    #expect(some.compactMap { $0 > 2 ? $0 * 2 : nil }.output == 6)
    #expect(some.dropFirst().output == nil)
    #expect(some.drop { $0 < 0 }.output == 3)
    #expect(some.prefix(1).output == 3)
    #expect(some.output(at: 0).output == 3)
    #expect(some.output(in: 1..<3).output == nil)
    #expect(some.first(where: { $0 == 3 }).output == 3)
    #expect(some.last().output == 3)
    #expect(some.min().output == 3)
  }

  @Test func reducingOperatorsAnswerForTheEmptyCase() {
    let some = Optional(3).publisher
    let none = Optional<Int>.none.publisher
    #expect(some.count().output == 1)
    #expect(none.count().output == 0)
    #expect(some.collect().output == [3])
    #expect(none.collect().output == [])
    #expect(none.allSatisfy { $0 > 100 }.output == true)
    #expect(none.contains(3).output == false)
    #expect(some.contains(3).output == true)
    #expect(some.reduce(10, +).output == 13)
    #expect(none.reduce(10, +).output == 10)
    #expect(none.scan(10, +).output == nil)
    let replaced: Optional<Int>.Publisher = none.replaceEmpty(with: 7)
    let kept: Optional<Int>.Publisher = some.replaceEmpty(with: 7)
    #expect(replaced.output == 7)
    #expect(kept.output == 3)
  }

  @Test func deliversLikeAnyPublisher() {
    let recorder = RecordingSubscriber<Int, Never>()
    Optional(2).publisher.map { $0 * 2 }.subscribe(recorder)
    #expect(recorder.values == [4])
    #expect(recorder.completion == .finished)
    let empty = RecordingSubscriber<Int, Never>()
    Optional(2).publisher.filter { $0 > 9 }.subscribe(empty)
    #expect(empty.values.isEmpty)
    #expect(empty.completion == .finished)
  }
}
