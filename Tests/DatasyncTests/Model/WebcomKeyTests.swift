import Foundation
import Testing

@testable import Datasync

@Suite struct WebcomKeyTests {
  @Test func orderOfTheDesignExample() {
    let expected: [WebcomKey] = [
      "0", "1", "01", "001", "7", "09", "72", "521", "1000", "aa", "b", "bb",
    ]
    #expect(expected.reversed().sorted() == expected)
    #expect(expected.shuffled().sorted() == expected)
    for (lowerIndex, lower) in expected.enumerated() {
      for (upperIndex, upper) in expected.enumerated() {
        #expect((lower < upper) == (lowerIndex < upperIndex), "\(lower) < \(upper)")
        #expect((lower == upper) == (lowerIndex == upperIndex), "\(lower) == \(upper)")
      }
    }
  }

  @Test func integerKeysComeFirstInNumericOrder() {
    let expected: [WebcomKey] = [
      "-9223372036854775808", "-10", "-2", "-1", "-01", "0", "-0", "00", "3", "9223372036854775807",
      "9223372036854775808", "A", "a", "ab", "abc", "b",
    ]
    #expect(expected.shuffled().sorted() == expected)
  }

  @Test func integerClassification() {
    #expect(WebcomKey("0").integerValue == 0)
    #expect(WebcomKey("-17").integerValue == -17)
    #expect(WebcomKey("007").integerValue == 7)
    #expect(WebcomKey("9223372036854775807").integerValue == .max)
    #expect(WebcomKey("-9223372036854775808").integerValue == .min)
    for notInteger in [
      "", "-", "+1", "1.0", "1e3", " 1", "1 ", "0x1", "9223372036854775808", "--1",
    ] {
      #expect(WebcomKey(notInteger).integerValue == nil, "\(notInteger)")
    }
  }

  @Test func nonIntegerKeysCompareByUTF8Bytes() {
    // U+00E9 is C3 A9 in UTF-8, U+FB01 is EF AC 81, U+1F600 is F0 9F 98 80.
    let expected: [WebcomKey] = [
      "Z", "_", "a", "abcdefgh", "abcdefgh\u{1}", "abcdefghi", "z", "\u{E9}", "\u{FB01}",
      "\u{1F600}",
    ]
    #expect(expected.shuffled().sorted() == expected)
    // Canonically equivalent strings with different bytes are different keys.
    let composed = WebcomKey("\u{E9}")
    let decomposed = WebcomKey("e\u{301}")
    #expect(composed != decomposed)
    #expect(decomposed < composed)
    #expect(Set([composed, decomposed]).count == 2)
  }

  @Test func equalityAndHashingFollowBytes() {
    let long = String(repeating: "x", count: 40)
    let keys: [WebcomKey] = ["a", "a", WebcomKey(long), WebcomKey(long + ""), "01", "1"]
    #expect(keys[0] == keys[1])
    #expect(keys[2] == keys[3])
    #expect(keys[4] != keys[5])
    #expect(Set(keys).count == 4)
    #expect(Dictionary(uniqueKeysWithValues: [("b" as WebcomKey, 1), ("c", 2)])["c"] == 2)
  }

  @Test func comparisonIsATotalOrderConsistentWithEquality() {
    let keys = Self.randomStrings(400, of: "-09az_\u{E9}", lengths: 1...10, seed: 7).map {
      WebcomKey($0)
    }
    for lhs in keys.prefix(60) {
      for rhs in keys {
        let order = WebcomKey.order(lhs, rhs)
        #expect(order == -WebcomKey.order(rhs, lhs))
        #expect((order == 0) == (lhs == rhs))
        #expect((order == 0) == (Array(lhs.value.utf8) == Array(rhs.value.utf8)))
      }
    }
  }

  /// `count` strings of characters of `alphabet`, of lengths in `lengths`, the same for a seed.
  private static func randomStrings(
    _ count: Int, of alphabet: String, lengths: ClosedRange<Int>, seed: UInt64
  ) -> [String] {
    var generator = SeededRandom(seed: seed)
    let characters = Array(alphabet)
    return (0..<count).map { _ in
      String(
        (0..<Int.random(in: lengths, using: &generator)).map { _ in
          characters.randomElement(using: &generator)!
        })
    }
  }

  /// The order of keys documented on `WebcomKey`, written the obvious (slow) way.
  private static func referenceLess(_ lhs: String, _ rhs: String) -> Bool {
    func integer(_ string: String) -> Int64? {
      let digits = string.hasPrefix("-") ? string.dropFirst() : Substring(string)
      guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
      return Int64(string)
    }
    switch (integer(lhs), integer(rhs)) {
    case (let lhsValue?, let rhsValue?):
      if lhsValue != rhsValue { return lhsValue < rhsValue }
      if lhs.utf8.count != rhs.utf8.count { return lhs.utf8.count < rhs.utf8.count }
      return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    case (.some, nil): return true
    case (nil, .some): return false
    case (nil, nil): return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
  }

  @Test func randomKeysFollowTheReferenceOrder() {
    var keys = Self.randomStrings(500, of: "-0019a_z\u{E9}", lengths: 1...12, seed: 11)
    keys += ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "-0", "00"]
    for lhs in keys.prefix(120) {
      for rhs in keys {
        #expect(
          (WebcomKey(lhs) < WebcomKey(rhs)) == Self.referenceLess(lhs, rhs), "\(lhs) < \(rhs)")
      }
    }
  }

  @Test func keysStoredInPartsBehaveAsTheirBytes() {
    var keys = Self.randomStrings(
      600, of: "-09a_z\u{0}\u{E9}\u{20AC}", lengths: 0...30, seed: 23)
    let twentyThree = String(repeating: "p", count: 23)
    keys += [
      twentyThree, twentyThree + "q", "abcdefg\u{E9}xyz", "abcdefgh\u{E9}xyz", "abcdefgh",
      "abcdefgh\u{0}", "abcdefg", "1234567890123456", "12345678901234567", "-123456789012345",
    ]
    for lhs in keys.prefix(150) {
      let lhsKey = WebcomKey(lhs)
      for rhs in keys {
        let rhsKey = WebcomKey(rhs)
        let sameBytes = Array(lhs.utf8) == Array(rhs.utf8)
        #expect((lhsKey < rhsKey) == Self.referenceLess(lhs, rhs), "\(lhs) < \(rhs)")
        #expect((lhsKey == rhsKey) == sameBytes, "\(lhs) == \(rhs)")
        if sameBytes { #expect(lhsKey.hashValue == rhsKey.hashValue) }
      }
    }
    for key in keys {
      let webcomKey = WebcomKey(key)
      let bytes = key.utf8.withContiguousStorageIfAvailable { WebcomKey(utf8: $0) }
      #expect(Array(webcomKey.value.utf8) == Array(key.utf8))
      #expect(webcomKey.withUTF8 { Array($0) } == Array(key.utf8))
      #expect(bytes == webcomKey)
      #expect(JSONObjectNode(webcomKey, .null, nil, nil).key == webcomKey)
    }
  }

  @Test func splitKeysWithASCIIRestsCompareAsTheirBytes() {
    let keys = [
      "abcdefghX", "abcdefghXY", "abcdefghXYZ", "abcdefgh\u{0}", "abcdefgh\u{7F}",
      "abcdefgh\u{E9}", "abcdefghX\u{E9}", "abcdefghe\u{301}", "abcdefgh\u{E9}X",
      "-NxYzAbCdEfGhIjKlMnO", "-NxYzAbCdEfGhIjKlMnP", "-NxYzAbCdEfGhIjKlMn", "abcdefgh",
    ]
    for key in keys {
      let webcomKey = WebcomKey(key)
      let restIsASCII = key.utf8.count > 8 && key.utf8.dropFirst(8).allSatisfy { $0 < 0x80 }
      #expect((webcomKey.shape & WebcomKey.asciiRestFlag != 0) == restIsASCII, "\(key)")
      let stored = JSONObjectNode(webcomKey, .null, nil, nil).key
      #expect(stored.shape == webcomKey.shape && stored == webcomKey, "\(key)")
    }
    for lhs in keys {
      for rhs in keys {
        let (lhsKey, rhsKey) = (WebcomKey(lhs), WebcomKey(rhs))
        #expect((lhsKey < rhsKey) == Self.referenceLess(lhs, rhs), "\(lhs) < \(rhs)")
        #expect((lhsKey == rhsKey) == (Array(lhs.utf8) == Array(rhs.utf8)), "\(lhs) == \(rhs)")
        #expect(
          JSONObjectNode(rhsKey, .null, nil, nil).order(of: lhsKey).signum()
            == WebcomKey.order(lhsKey, rhsKey).signum(), "\(lhs) vs stored \(rhs)")
      }
    }
  }

  @Test func pushIdentifiersAreStoredWithoutAStringOfTheirOwn() {
    let key = PushIdentifierGenerator().next()
    #expect(key.isSplit)
    #expect(key.rest.utf8.count == 12)
    #expect(key.value.utf8.count == 20)
    #expect(!WebcomKey(String(repeating: "k", count: 24)).isSplit)
    #expect(!WebcomKey("12345").isSplit)
  }

  @Test func stringLiteralCodableAndDescription() throws {
    let key: WebcomKey = "room-1"
    #expect(key.value == "room-1")
    #expect(key.description == "room-1")
    let data = try JSONEncoder().encode([key])
    #expect(String(decoding: data, as: UTF8.self) == "[\"room-1\"]")
    #expect(try JSONDecoder().decode([WebcomKey].self, from: data) == [key])
  }

  @Test func dictionariesKeyedByKeysEncodeAsObjects() throws {
    let dictionary: [WebcomKey: Int] = ["a": 1, "10": 2]
    let data = try JSONEncoder().encode(dictionary)
    #expect(try JSONDecoder().decode([String: Int].self, from: data) == ["a": 1, "10": 2])
    #expect(try JSONDecoder().decode([WebcomKey: Int].self, from: data) == dictionary)
  }

  @Test func validationRejectsEveryForbiddenCharacter() {
    let forbidden =
      [".", "$", "#", "[", "]", "/"] + (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + [
        "\u{7F}"
      ]
    for character in forbidden {
      #expect(throws: WebcomError.self) { try WebcomKey.validated("a\(character)b") }
      do {
        _ = try WebcomKey.validated("a\(character)b")
      } catch {
        #expect(error.code == .invalidKey)
        #expect(error.message.contains("forbidden"))
      }
    }
    #expect(throws: WebcomError.self) { try WebcomKey.validated("") }
    #expect(throws: Never.self) { try WebcomKey.validated("\u{80}\u{E9} ok-_~!") }
  }

  @Test func validationLimitsTheLength() throws {
    #expect(try WebcomKey.validated(String(repeating: "k", count: 768)).utf8Count == 768)
    #expect(throws: WebcomError.self) {
      try WebcomKey.validated(String(repeating: "k", count: 769))
    }
    // 384 two-byte characters are 768 bytes.
    #expect(throws: Never.self) { try WebcomKey.validated(String(repeating: "\u{E9}", count: 384)) }
    #expect(throws: WebcomError.self) {
      try WebcomKey.validated(String(repeating: "\u{E9}", count: 385))
    }
  }

  @Test func dateOfPushIdentifiers() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.123)
    let key = PushIdentifierGenerator().next(at: date)
    let decoded = try #require(key.date)
    #expect(abs(decoded.timeIntervalSince1970 - 1_700_000_000.123) < 0.0005)
    #expect(WebcomKey("short").date == nil)
    #expect(WebcomKey("-Nabcdefghijklmnop.q").date == nil)
  }
}
