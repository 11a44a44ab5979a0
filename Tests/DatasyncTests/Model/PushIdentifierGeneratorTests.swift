import Foundation
import Testing

@testable import Datasync

@Suite struct PushIdentifierGeneratorTests {
  private static let alphabet = Set(
    "-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

  @Test func shapeAndTimestamp() {
    let generator = PushIdentifierGenerator()
    let key = generator.next(at: Date(timeIntervalSince1970: 0))
    #expect(key.value.count == 20)
    #expect(key.value.allSatisfy { Self.alphabet.contains($0) })
    #expect(key.value.hasPrefix("--------"))
    let oneMillisecond = generator.next(at: Date(timeIntervalSince1970: 0.001))
    #expect(oneMillisecond.value.hasPrefix("-------0"))
    // 64 ms is "10" in base 64, spelled with the alphabet: "-" is 0, "0" is 1.
    let sixtyFour = generator.next(at: Date(timeIntervalSince1970: 0.064))
    #expect(sixtyFour.value.hasPrefix("------0-"))
    #expect(sixtyFour.date == Date(timeIntervalSince1970: 0.064))
  }

  @Test func theAlphabetIsInASCIIOrder() {
    #expect(PushIdentifierGenerator.alphabet == PushIdentifierGenerator.alphabet.sorted())
    #expect(PushIdentifierGenerator.alphabet.count == 64)
  }

  @Test func identifiersFollowTheClock() {
    let generator = PushIdentifierGenerator()
    let early = generator.next(at: Date(timeIntervalSince1970: 1_600_000_000))
    let late = generator.next(at: Date(timeIntervalSince1970: 1_600_000_000.002))
    #expect(early < late)
    #expect(early.value.prefix(8) < late.value.prefix(8))
  }

  @Test func identifiersIncreaseWithinOneMillisecondAndWhenTheClockGoesBack() {
    let generator = PushIdentifierGenerator()
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    var previous = generator.next(at: date)
    for step in 0..<1_000 {
      let next = generator.next(at: step.isMultiple(of: 2) ? date : date.addingTimeInterval(-5))
      #expect(previous < next)
      #expect(next.value.prefix(8) == previous.value.prefix(8))
      previous = next
    }
  }

  @Test func theLowHalfCarriesIntoTheHighHalf() {
    let maximum = PushIdentifierGenerator.maximumRandomHalf
    let generator = PushIdentifierGenerator { (5, maximum) }
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let first = generator.next(at: date)
    let second = generator.next(at: date)
    #expect(first.value.suffix(12) == "-----4zzzzzz")
    #expect(second.value.suffix(12) == "-----5------")
    #expect(first < second)
  }

  @Test func overflowOfTheRandomPartMovesTheTimestampForward() throws {
    let maximum = PushIdentifierGenerator.maximumRandomHalf
    let generator = PushIdentifierGenerator { (maximum, maximum) }
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let first = generator.next(at: date)
    let second = generator.next(at: date)
    let third = generator.next(at: date)
    #expect(first.value.suffix(12) == "zzzzzzzzzzzz")
    #expect(first < second)
    #expect(second < third)
    let firstDate = try #require(first.date)
    let secondDate = try #require(second.date)
    #expect(abs(secondDate.timeIntervalSince(firstDate) - 0.001) < 0.0001)
    // The clock catching up does not go back below the moved timestamp.
    let fourth = generator.next(at: date.addingTimeInterval(0.001))
    #expect(third < fourth)
  }

  @Test func randomPartsDifferBetweenGenerators() {
    let date = Date(timeIntervalSince1970: 1_700_000_000)
    let randomParts = Set(
      (0..<100).map { _ in PushIdentifierGenerator().next(at: date).value.suffix(12) })
    #expect(randomParts.count == 100)
  }

  @Test func datesOutOfRangeAreClamped() {
    let generator = PushIdentifierGenerator()
    #expect(generator.next(at: Date(timeIntervalSince1970: -10)).value.hasPrefix("--------"))
    #expect(generator.next(at: Date(timeIntervalSince1970: 1e12)).value.hasPrefix("zzzzzzzz"))
  }

  @Test func theSharedGeneratorUsesTheCurrentDate() throws {
    let before = Date()
    let key = PushIdentifierGenerator.shared.next()
    let date = try #require(key.date)
    #expect(date.timeIntervalSince(before) > -0.002)
    #expect(date.timeIntervalSince(before) < 60)
  }

  @Test(arguments: [false, true])
  func twentyThousandIdentifiersFromFourThreads(sameMillisecond: Bool) throws {
    let generator = PushIdentifierGenerator()
    let fixedDate = Date(timeIntervalSince1970: 1_700_000_000)
    // 5,000 a thread: under the thread sanitizer on a loaded 2-core machine, 25,000 took up to
    // 120 s per case and once ran out of the wait below.
    let perThread = 5_000
    let results = ResultsBox(threads: 4)
    let done = DispatchSemaphore(value: 0)
    for thread in 0..<4 {
      Thread.detachNewThread {
        var keys: [WebcomKey] = []
        keys.reserveCapacity(perThread)
        for _ in 0..<perThread {
          keys.append(sameMillisecond ? generator.next(at: fixedDate) : generator.next())
        }
        results.store(keys, for: thread)
        done.signal()
      }
    }
    for _ in 0..<4 {
      #expect(done.wait(timeout: .now() + 300) == .success)
    }
    let perThreadKeys = results.all
    var all = Set<WebcomKey>()
    for keys in perThreadKeys {
      #expect(keys.count == perThread)
      #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
      all.formUnion(keys)
    }
    #expect(all.count == 4 * perThread)
    #expect(all.allSatisfy { $0.utf8Count == 20 && $0.date != nil })
  }
}

/// Collects the keys generated by each thread.
private final class ResultsBox: @unchecked Sendable {
  /// Protects `keys`.
  private let lock = NSLock()
  private var keys: [[WebcomKey]]

  init(threads: Int) {
    keys = Array(repeating: [], count: threads)
  }

  func store(_ threadKeys: [WebcomKey], for thread: Int) {
    lock.lock()
    keys[thread] = threadKeys
    lock.unlock()
  }

  var all: [[WebcomKey]] {
    lock.lock()
    defer { lock.unlock() }
    return keys
  }
}
