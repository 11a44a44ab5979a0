import Foundation
import Testing

@testable import Datasync

@Suite struct StoredPathTests {
  /// Keys of every shape: integers of every byte length and sign, non-canonical spellings of
  /// equal numbers, numbers just outside Int64 (which are not integer keys), text keys that start
  /// with digits or `-`, unicode and long keys.
  static let awkwardKeys: [WebcomKey] = {
    var keys: [WebcomKey] = [
      "0", "-0", "00", "-00", "000", "1", "01", "001", "-1", "-01", "7", "07", "-7", "-07", "-007",
      "9", "10", "99", "100", "255", "256", "-255", "-256", "-257", "65535", "65536", "-65536",
      "-65537", "9223372036854775807", "09223372036854775807", "-9223372036854775808",
      "9223372036854775808", "-9223372036854775809", "1a", "-", "--1", "1-", "a", "aa", "ab", "b",
      " ", "!", "~", "\u{7E}x", "\u{80}", "\u{E9}t\u{E9}", "\u{65E5}\u{672C}", "\u{1F600}",
      "-NxYzAbCdEfGhIjKlMnO", "-NxYzAbCdEfGhIjKlMnP", "key with spaces",
      WebcomKey(String(repeating: "k", count: 768)), WebcomKey(String(repeating: "k", count: 767)),
      WebcomKey(String(repeating: "0", count: 700) + "5"),
    ]
    for shift in stride(from: 0, to: 63, by: 7) {
      let value = Int64(1) << shift
      keys += [WebcomKey(String(value)), WebcomKey(String(-value)), WebcomKey(String(value - 1))]
      keys += [WebcomKey(String(-value - 1)), WebcomKey(String(value + 1))]
    }
    return Array(Set(keys))
  }()

  private static func encoding(_ keys: [WebcomKey]) throws -> [UInt8] {
    try StoredPath.encoded(keys)
  }

  private static func byteOrder(_ lhs: [UInt8], _ rhs: [UInt8]) -> Int {
    for (left, right) in zip(lhs, rhs) where left != right { return left < right ? -1 : 1 }
    return lhs.count == rhs.count ? 0 : (lhs.count < rhs.count ? -1 : 1)
  }

  @Test func byteOrderOfEncodedKeysIsKeyOrder() throws {
    let keys = Self.awkwardKeys
    let encoded = try keys.map { try Self.encoding([$0]) }
    for left in keys.indices {
      for right in keys.indices {
        let expected = WebcomKey.order(keys[left], keys[right]).signum()
        let actual = Self.byteOrder(encoded[left], encoded[right])
        #expect(actual == expected, "\(keys[left]) vs \(keys[right])")
      }
    }
  }

  @Test func randomKeysSortTheSameWayEncoded() throws {
    var random = SeededRandom(seed: 16)
    let alphabet = Array("0123456789-aZ\u{E9}~ ")
    var keys: Set<WebcomKey> = []
    while keys.count < 3_000 {
      let length = Int.random(in: 1...6, using: &random)
      let text = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
      keys.insert(WebcomKey(text))
    }
    let byKey = keys.sorted()
    let byBytes = try keys.map { ($0, try Self.encoding([$0])) }
      .sorted { Self.byteOrder($0.1, $1.1) < 0 }.map(\.0)
    #expect(byKey == byBytes)
  }

  @Test func everyKeyDecodesBackToItself() throws {
    for key in Self.awkwardKeys {
      let encoded = try Self.encoding([key])
      let decoded = encoded.withUnsafeBytes { StoredPath.decodeKey(in: $0, at: 0) }
      #expect(decoded?.key.value == key.value, "\(key)")
      #expect(decoded?.key.isInteger == key.isInteger, "\(key)")
      #expect(decoded?.end == encoded.count, "\(key)")
    }
  }

  @Test func canonicalIntegersAreCompact() throws {
    #expect(try Self.encoding(["0"]) == [0x0A, 0x00])
    #expect(try Self.encoding(["5"]) == [0x0B, 0x05, 0x00])
    #expect(try Self.encoding(["-1"]) == [0x09, 0x00])
    #expect(try Self.encoding(["300"]) == [0x0C, 0x01, 0x2C, 0x00])
    #expect(try Self.encoding(["05"]) == [0x0B, 0x05, 0x01, 0x00, 0x02, 0x30, 0x35, 0x00])
    #expect(try Self.encoding(["ab"]) == [0x61, 0x62, 0x00])
  }

  @Test func pathsSortInKeyOrderWithAncestorsFirst() throws {
    var random = SeededRandom(seed: 7)
    let keys: [WebcomKey] = ["0", "00", "1", "-1", "10", "a", "a b", "ab", "b", "\u{E9}"]
    var paths: Set<[WebcomKey]> = [[]]
    while paths.count < 2_000 {
      let depth = Int.random(in: 1...4, using: &random)
      paths.insert((0..<depth).map { _ in keys.randomElement(using: &random)! })
    }
    let keyOrder = paths.sorted { $0.lexicographicallyPrecedes($1) }
    let byteOrder = try paths.map { ($0, try Self.encoding($0)) }
      .sorted { Self.byteOrder($0.1, $1.1) < 0 }.map(\.0)
    #expect(keyOrder == byteOrder)
  }

  @Test func aSubtreeIsExactlyTheRangeOfItsEncoding() throws {
    let keys: [WebcomKey] = ["0", "00", "1", "a", "ab", "b", "-1"]
    var paths: [[WebcomKey]] = [[]]
    for _ in 0..<3 {
      paths += paths.flatMap { path in keys.map { path + [$0] } }
      paths = Array(Set(paths))
    }
    let encoded = try paths.map { try Self.encoding($0) }
    for (ancestor, start) in zip(paths, encoded) where !ancestor.isEmpty {
      let end = StoredPath.subtreeEnd(of: start)
      for (candidate, bytes) in zip(paths, encoded) {
        let inRange = Self.byteOrder(bytes, start) >= 0 && Self.byteOrder(bytes, end) < 0
        #expect(inRange == candidate.starts(with: ancestor), "\(candidate) under \(ancestor)")
      }
    }
  }

  @Test func keysThatCannotNameAChildAreRefused() {
    for key: WebcomKey in ["", "a/b", "a.b", "$x", "#", "[", "]", "tab\t", "del\u{7F}"] {
      let error = #expect(throws: WebcomError.self) { try StoredPath.encoded(["ok", key]) }
      #expect(error?.code == .invalidKey)
      #expect(error?.message.contains(WebcomKey.quoted(key.value)) == true)
    }
  }

  @Test(arguments: [
    [0x0B] as [UInt8],  // value bytes missing
    [0x0B, 0x05],  // form missing
    [0x0B, 0x05, 0x02],  // unknown form
    [0x0B, 0x00, 0x00],  // zero written with a value byte
    [0x13, 0x00],  // tag beyond the integers
    [0x05, 0x00],  // a control byte where a key starts
    [0x31, 0x32, 0x00],  // "12", an integer, written as text
    [0x61, 0x62],  // text without its terminator
    [0x61, 0x2F, 0x62, 0x00],  // "a/b", a forbidden character
    [0xFF, 0xFE, 0x00],  // not UTF-8
    [0x0B, 0x05, 0x01, 0x00, 0x01, 0x35, 0x00],  // the canonical "5" spelled
    [0x0B, 0x05, 0x01, 0x00, 0x02, 0x30, 0x36, 0x00],  // "06" under the value 5
    [0x0B, 0x05, 0x01, 0x00, 0x09, 0x30, 0x35, 0x00],  // spelling longer than the bytes
  ])
  func malformedEncodingsAreNotKeys(bytes: [UInt8]) {
    let decoded = bytes.withUnsafeBytes { StoredPath.decodeKey(in: $0, at: 0) }
    #expect(decoded == nil)
  }

  @Test func descriptionsNamePathsOrShowBytes() throws {
    let encoded = try Self.encoding(["rooms", "007", "-3", "\u{E9}"])
    #expect(
      encoded.withUnsafeBytes { StoredPath.description(of: $0) } == "\"/rooms/007/-3/\u{E9}\"")
    #expect([UInt8]().withUnsafeBytes { StoredPath.description(of: $0) } == "\"/\"")
    #expect(
      ([0x05, 0xAB] as [UInt8]).withUnsafeBytes { StoredPath.description(of: $0) } == "0x05ab")
  }
}
