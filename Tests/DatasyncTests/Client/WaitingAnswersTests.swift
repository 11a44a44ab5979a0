import Dispatch
import Testing

@testable import Datasync

@Suite struct WaitingAnswersTests {
  /// An answer that records, in `answered`, the identifier it was made for.
  private static func answer(_ identifier: RequestIdentifier, into answered: LockedValue<[UInt64]>)
    -> DatasyncClient.WaitingAnswer
  {
    .value { _ in answered.withLock { $0.append(identifier) } }
  }

  /// Answers taken in and out of order, with identifiers never or no longer waiting, are those a
  /// table by identifier gives.
  @Test func answersAreTakenAsATableByIdentifierGivesThem() {
    let answered = LockedValue<[UInt64]>([])
    var answers = WaitingAnswers()
    var model: [RequestIdentifier: Bool] = [:]
    var generator = SystemRandomNumberGenerator()
    var next: RequestIdentifier = 1
    for _ in 0..<2_000 {
      if Int.random(in: 0..<3, using: &generator) > 0 {
        // Some requests have no answer: their identifiers are skipped.
        next += RequestIdentifier.random(in: 1...2, using: &generator)
        answers.insert(Self.answer(next, into: answered), for: next)
        model[next] = true
      } else {
        // Mostly the oldest waiting answer, sometimes any identifier made so far.
        let identifier =
          Bool.random(using: &generator)
          ? (model.keys.min() ?? 1) : RequestIdentifier.random(in: 1...next, using: &generator)
        let taken = answers.remove(identifier)
        #expect((taken != nil) == (model.removeValue(forKey: identifier) != nil))
        taken?(.success(.null))
        #expect(taken == nil || answered.withLock { $0.last } == identifier)
      }
      #expect(answers.identifiers == model.keys.sorted())
    }
    for identifier in model.keys.sorted() { #expect(answers.remove(identifier) != nil) }
    #expect(answers.identifiers.isEmpty)
    #expect(answers.remove(next) == nil)
  }

  @Test func anAnswerMadeForAnEarlierIdentifierTakesItsPlace() {
    let answered = LockedValue<[UInt64]>([])
    var answers = WaitingAnswers()
    answers.insert(Self.answer(5, into: answered), for: 5)
    answers.insert(Self.answer(3, into: answered), for: 3)
    answers.insert(Self.answer(4, into: answered), for: 4)
    #expect(answers.identifiers == [3, 4, 5])
    answers.remove(4)?(.success(.null))
    answers.remove(5)?(.success(.null))
    answers.remove(3)?(.success(.null))
    #expect(answered.withLock { $0 } == [4, 5, 3])
    #expect(answers.identifiers.isEmpty)
  }
}
