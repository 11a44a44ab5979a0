import Foundation
import Testing

@testable import Datasync

@Suite struct JSONValueTests {
  private static func parse(_ text: String) throws(WebcomError) -> JSONValue {
    try JSONValue.fromJSONData(Data(text.utf8))
  }

  private static func parseError(_ text: String) -> WebcomError? {
    do {
      _ = try parse(text)
      return nil
    } catch {
      return error
    }
  }

  @Test func scalars() throws {
    #expect(try Self.parse("null") == .null)
    #expect(try Self.parse(" true ") == .bool(true))
    #expect(try Self.parse("false") == .bool(false))
    #expect(try Self.parse("\"hi\"") == .string("hi"))
  }

  @Test func integersAndFloatingNumbersStayApart() throws {
    #expect(try Self.parse("1") == .int(1))
    #expect(try Self.parse("-0") == .int(0))
    #expect(try Self.parse("1.0") == .double(1))
    #expect(try Self.parse("1e2") == .double(100))
    #expect(try Self.parse("-2.5E-3") == .double(-0.0025))
    #expect(try Self.parse("9223372036854775807") == .int(.max))
    #expect(try Self.parse("-9223372036854775808") == .int(.min))
    #expect(try Self.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
    #expect(try Self.parse("12345678901234567890123") == .double(1.2345678901234568e22))
    #expect(JSONValue.int(1) != .double(1))
    #expect(String(decoding: JSONValue.double(1).jsonData(), as: UTF8.self) == "1.0")
    #expect(try Self.parse(JSONValue.double(1).jsonString) == .double(1))
  }

  @Test func nonFiniteNumbersAreRejectedNamingTheCulprit() throws {
    let error = try #require(Self.parseError("{\"a\":{\"b\":[1, 1e999]}}"))
    #expect(error.code == .invalidValue)
    #expect(error.message.contains("\"a/b/1\""))
    #expect(error.message.contains("1e999"))
    #expect(Self.parseError("-1e400")?.code == .invalidValue)
    #expect(throws: WebcomError.self) { try JSONValue.finite(.nan) }
    #expect(throws: WebcomError.self) { try JSONValue.finite(-.infinity, culprit: "the step") }
    #expect(try JSONValue.finite(2.5) == .double(2.5))
  }

  @Test func nullsDeleteAndEmptyObjectsVanish() throws {
    #expect(try Self.parse("{}") == .null)
    #expect(try Self.parse("[]") == .null)
    #expect(try Self.parse("{\"a\":null}") == .null)
    #expect(try Self.parse("{\"a\":{\"b\":{}}, \"c\":[null, {}]}") == .null)
    let value = try Self.parse("{\"a\":{\"b\":{}}, \"c\":1, \"d\":null}")
    #expect(value.children?.keys == ["c"])
    #expect(value["c"] == .int(1))
  }

  @Test func arraysAreStoredAsObjectsKeyedByIndex() throws {
    let value = try Self.parse("[\"x\", null, {\"k\": true}, [], 4]")
    #expect(value.children?.keys == ["0", "2", "4"])
    #expect(value["0"] == .string("x"))
    #expect(value.value(at: ["2", "k"] as [WebcomKey]) == .bool(true))
    #expect(value.arrayElements == [.string("x"), .null, value["2"], .null, .int(4)])
    #expect(value.jsonString == "[\"x\",null,{\"k\":true},null,4]")
    // Objects keyed like arrays read back as arrays; others do not.
    #expect(try Self.parse("{\"1\":\"b\",\"0\":\"a\"}").jsonString == "[\"a\",\"b\"]")
    #expect(try Self.parse("{\"01\":\"b\",\"0\":\"a\"}").arrayElements == nil)
    #expect(try Self.parse("{\"-1\":\"b\",\"0\":\"a\"}").arrayElements == nil)
    #expect(try Self.parse("{\"0\":\"a\",\"x\":\"b\"}").arrayElements == nil)
    #expect(try Self.parse("{\"0\":\"a\",\"2\":\"b\"}").arrayElements?.count == 3)
    #expect(try Self.parse("{\"0\":\"a\",\"4\":\"b\"}").arrayElements == nil)
    #expect(try Self.parse("{\"7\":\"a\"}").jsonString == "{\"7\":\"a\"}")
  }

  /// An object keyed by indices is an array only when more than half of the slots from 0 to the
  /// largest index hold a value.
  @Test(arguments: [
    (#"{"1":"a"}"#, #"{"1":"a"}"#),
    (#"{"0":"a","3":"d"}"#, #"{"0":"a","3":"d"}"#),
    (#"{"0":"a"}"#, #"["a"]"#),
    (#"{"0":"a","2":"c"}"#, #"["a",null,"c"]"#),
    (#"{"1":"b","2":"c"}"#, #"[null,"b","c"]"#),
    (#"{"0":"a","1":"b","5":"f"}"#, #"{"0":"a","1":"b","5":"f"}"#),
    (#"{"0":"a","1":"b","2":"c","6":"g"}"#, #"["a","b","c",null,null,null,"g"]"#),
    (#"{"2147483647":"x"}"#, #"{"2147483647":"x"}"#),
    (#"{"0":"a","1":"b","2147483648":"c"}"#, #"{"0":"a","1":"b","2147483648":"c"}"#),
  ])
  func arrayDetectionNeedsMoreThanHalfOfTheSlots(stored: String, read: String) throws {
    #expect(try Self.parse(stored).jsonString == read)
    #expect(
      DatasyncValue(try Self.parse(stored)).asArray() == nil ? read.first == "{" : read.first == "["
    )
  }

  @Test func keysAreValidatedNamingTheCulprit() throws {
    for character in [".", "$", "#", "[", "]", "/", "\\u0001", "\\u007f"] {
      let error = try #require(Self.parseError("{\"ok\":{\"bad\(character)key\":1}}"))
      #expect(error.code == .invalidKey, "\(character)")
      #expect(error.message.contains("\"ok/bad"), "\(error.message)")
    }
    #expect(Self.parseError("{\"\":1}")?.code == .invalidKey)
    let long = String(repeating: "k", count: 769)
    #expect(Self.parseError("{\"\(long)\":1}")?.code == .invalidKey)
  }

  @Test func serverValuePlaceholder() throws {
    let value = try Self.parse("{\"sent\":{\".sv\":\"timestamp\"},\"n\":1}")
    #expect(value["sent"].isServerTimestamp)
    #expect(value.containsServerValues)
    #expect(!value["n"].containsServerValues)
    let resolved = value.resolvingServerValues(now: Date(timeIntervalSince1970: 12.345))
    #expect(resolved["sent"] == .int(12_345))
    #expect(resolved["n"] == .int(1))
    #expect(!resolved.containsServerValues)
    #expect(Self.parseError("{\".sv\":\"other\"}")?.code == .invalidKey)
    #expect(Self.parseError("{\".sv\":\"timestamp\",\"a\":1}")?.code == .invalidKey)
    #expect(Self.parseError("{\"a\":{\".sv\":1}}")?.message.contains("\"a/.sv\"") == true)
  }

  @Test func nestingIsLimitedTo32Levels() throws {
    func nested(_ depth: Int) -> String {
      String(repeating: "{\"k\":", count: depth) + "1" + String(repeating: "}", count: depth)
    }
    let deepest = try Self.parse(nested(32))
    #expect(deepest.value(at: Array(repeating: "k", count: 32) as [WebcomKey]) == .int(1))
    let error = try #require(Self.parseError(nested(33)))
    #expect(error.code == .invalidValue)
    #expect(error.message.contains("deeper than 32"))
    #expect(Self.parseError(String(repeating: "[", count: 100_000))?.code == .invalidValue)
  }

  @Test func limitsOfTheWrittenPaths() throws {
    let value = try Self.parse("{\"a\":{\"b\":1},\"c\":2}")
    try value.checkLimits(at: .root)
    let thirty = try DatasyncPath(parsing: Array(repeating: "k", count: 30).joined(separator: "/"))
    try value.checkLimits(at: thirty)
    do {
      try value.checkLimits(at: thirty.child("k"))
      Issue.record("accepted 33 levels")
    } catch {
      #expect(error.code == .invalidValue)
      #expect(error.message.contains("/k/a/b\""))
      #expect(error.message.contains("33 levels"))
    }
    // "/" + 760 bytes, then "/a/b" is 765 bytes and "/yyy/a/b" is 769.
    let long = try DatasyncPath(parsing: String(repeating: "x", count: 760))
    try JSONValue.int(1).checkLimits(at: long)
    try value.checkLimits(at: long)
    try value.checkLimits(at: long.child("yy"))
    do {
      try value.checkLimits(at: long.child("yyy"))
      Issue.record("accepted 769 bytes")
    } catch {
      #expect(error.message.contains("769 UTF-8 bytes"))
    }
    let longKey = try Self.parse("{\"\(String(repeating: "z", count: 767))\":1}")
    try longKey.checkLimits(at: .root)
    #expect(throws: WebcomError.self) {
      try longKey.checkLimits(at: try DatasyncPath(parsing: "q"))
    }
  }

  @Test func theCulpritOverALimitIsTheFirstInKeyOrder() throws {
    // 40 siblings (a tree several levels high), of which the 11th and the 31st in key order hold
    // a path one level too deep, and the 31st one more.
    var fields: [String] = []
    for index in 0..<40 {
      let key = String(format: "k%02d", index)
      switch index {
      case 10: fields.append("\"\(key)\":{\"x\":{\"deep\":1},\"a\":2}")
      case 30: fields.append("\"\(key)\":{\"a\":{\"deep\":{\"deeper\":1}}}")
      default: fields.append("\"\(key)\":\(index)")
      }
    }
    let value = try Self.parse("{" + fields.joined(separator: ",") + "}")
    let thirty = try DatasyncPath(parsing: Array(repeating: "p", count: 30).joined(separator: "/"))
    try value.checkLimits(at: try DatasyncPath(parsing: "p"))
    do {
      try value.checkLimits(at: thirty)
      Issue.record("accepted 33 levels")
    } catch {
      #expect(error.code == .invalidValue)
      #expect(error.message.contains("/p/k10/x/deep\""), "\(error)")
      #expect(error.message.contains("33 levels"), "\(error)")
    }
  }

  @Test func malformedJSONIsRejected() {
    for text in [
      "", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "tru", "nul", "01", "1.", ".5", "-", "1e", "+1",
      "\"abc", "\"a\u{1}b\"", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "{a:1}", "1 2", "[1 2]",
      "\"\\u12\"",
    ] {
      let error = Self.parseError(text)
      #expect(error?.code == .invalidValue, "\(text)")
      #expect(error?.message.contains("malformed JSON") == true, "\(text)")
    }
  }

  @Test func stringsRoundTrip() throws {
    let strings = [
      "", "plain", "quote\" backslash\\ slash/", "\n\r\t\u{8}\u{C}\u{0}\u{1F}\u{7F}",
      "caf\u{E9} \u{1F600}",
      "e\u{301}",
    ]
    for string in strings {
      let written = JSONValue.string(string).jsonData()
      #expect(try JSONValue.fromJSONData(written) == .string(string))
      #expect(try JSONDecoder().decode(String.self, from: written) == string)
    }
    #expect(try Self.parse("\"\\ud83d\\ude00 \\u00e9\\/\"") == .string("\u{1F600} \u{E9}/"))
  }

  @Test func escapedAndNonASCIIKeysAreClassifiedLikePlainOnes() throws {
    let value = try Self.parse("{\"\\u0031\\u0030\":1, \"9\":2, \"caf\u{E9}\":3, \"b\":4}")
    #expect(value.children?.keys == ["9", "10", "b", "caf\u{E9}"])
    #expect(value.children?.keys.map(\.isInteger) == [true, true, false, false])
    #expect(value["10"] == .int(1))
  }

  @Test func largeUnsortedObjectsWithDuplicatesKeepTheLast() throws {
    var generator = SeededRandom(seed: 5)
    let names = (0..<60).map { "k\($0 % 45)" }.shuffled(using: &generator)
    var expected: [String: Int] = [:]
    var members: [String] = []
    for (position, name) in names.enumerated() {
      expected[name] = position
      members.append("\"\(name)\":\(position)")
    }
    let value = try Self.parse("{" + members.joined(separator: ",") + "}")
    let object = try #require(value.children)
    #expect(object.isValid)
    #expect(object.keys == expected.keys.map { WebcomKey($0) }.sorted())
    for (name, position) in expected { #expect(object[WebcomKey(name)] == .int(Int64(position))) }
  }

  @Test func duplicateKeysKeepTheLast() throws {
    #expect(try Self.parse("{\"b\":1,\"a\":2,\"b\":3}").jsonString == "{\"a\":2,\"b\":3}")
    #expect(try Self.parse("{\"a\":1,\"a\":null}") == .null)
  }

  @Test func sortingPairsKeepsTheLastOfEachKeyInKeyOrder() {
    var generator = SeededRandom(seed: 5)
    for count in [2, 3, 10, 32, 33, 100] {
      for _ in 0..<50 {
        let names = (0..<count).map { _ in
          String(Int.random(in: 0..<(count + count / 2), using: &generator)) + "k"
        }
        var pairs = names.enumerated().map {
          (key: WebcomKey($0.element), value: JSONValue.int(Int64($0.offset)))
        }
        JSONObject.sortKeepingLast(&pairs)
        var last: [String: Int64] = [:]
        for (position, name) in names.enumerated() { last[name] = Int64(position) }
        #expect(pairs.map(\.key) == last.keys.map { WebcomKey($0) }.sorted())
        #expect(pairs.allSatisfy { last[$0.key.value].map(JSONValue.int) == $0.value })
      }
    }
  }

  @Test func writingThenParsingGivesTheSameValue() throws {
    var generator = SeededRandom(seed: 99)
    func randomValue(depth: Int) -> JSONValue {
      switch Int.random(in: 0..<(depth < 4 ? 7 : 5), using: &generator) {
      case 0: return .bool(Bool.random(using: &generator))
      case 1: return .int(Int64.random(in: .min ... .max, using: &generator))
      case 2: return .double(Double.random(in: -1e300...1e300, using: &generator))
      case 3: return .double(Double(Int.random(in: -5...5, using: &generator)) / 8)
      case 4:
        return .string(
          String((0..<5).map { _ in "a\"\\\n\u{E9}\u{1F600}".randomElement(using: &generator)! }))
      default:
        var object = JSONObject()
        for _ in 0..<Int.random(in: 1...6, using: &generator) {
          let key =
            Bool.random(using: &generator)
            ? WebcomKey(String(Int.random(in: 0...6, using: &generator)))
            : WebcomKey("k" + String(Int.random(in: 0...20, using: &generator)))
          object = object.setting(randomValue(depth: depth + 1), for: key)
        }
        return .object(object)
      }
    }
    for _ in 0..<300 {
      let value = randomValue(depth: 0)
      #expect(try JSONValue.fromJSONData(value.jsonData()) == value)
    }
  }

  @Test func settingNormalisesAndSharesUntouchedChildren() throws {
    let value = try Self.parse("{\"a\":{\"b\":1,\"c\":2},\"d\":{\"e\":3}}")
    let changed = value.setting(.int(5), at: ["a", "b"] as [WebcomKey])
    #expect(changed.value(at: ["a", "b"] as [WebcomKey]) == .int(5))
    #expect(value.value(at: ["a", "b"] as [WebcomKey]) == .int(1))
    #expect(changed["d"].children?.root === value["d"].children?.root)
    let removed = value.setting(.null, at: ["d", "e"] as [WebcomKey])
    #expect(removed.children?.keys == ["a"])
    let emptied = removed.setting(.null, at: ["a", "b"] as [WebcomKey])
      .setting(.object(JSONObject()), at: ["a", "c"] as [WebcomKey])
    #expect(emptied == .null)
    #expect(
      JSONValue.int(1).setting(.bool(true), at: ["x", "y"] as [WebcomKey]).jsonString
        == "{\"x\":{\"y\":true}}")
    #expect(value.setting(.string("s"), at: [] as [WebcomKey]) == .string("s"))
    #expect(value.value(at: ["a", "b", "z"] as [WebcomKey]) == .null)
    #expect(value["missing"] == .null)
    // Deleting below a scalar or a missing child changes nothing and shares the storage.
    #expect(JSONValue.int(5).setting(.null, at: ["x", "y"] as [WebcomKey]) == .int(5))
    let unchanged = value.setting(.null, at: ["a", "zz"] as [WebcomKey])
    #expect(unchanged.children?.root === value.children?.root)
    #expect(
      value.setting(.int(1), at: ["a", "b"] as [WebcomKey]).children?.root === value.children?.root)
    #expect(JSONValue.object(JSONObject()).isNull)
  }

  @Test func settingReturningReplacedGivesTheValueFoundAtThePath() throws {
    let value = try Self.parse("{\"a\":{\"b\":1,\"c\":{\"d\":2}},\"e\":\"s\"}")
    let cases: [(keys: [WebcomKey], written: JSONValue, replaced: JSONValue)] = [
      (["a", "b"], .int(5), .int(1)),
      (["a", "c"], .null, try Self.parse("{\"d\":2}")),
      (["a", "missing"], .bool(true), .null),
      (["e", "below", "a", "scalar"], .int(3), .null),
      ([], .string("root"), value),
    ]
    for (keys, written, replaced) in cases {
      let (result, found) = value.settingReturningReplaced(written, at: keys)
      #expect(found == replaced, "at \(keys)")
      #expect(found == value.value(at: keys), "at \(keys)")
      #expect(result == value.setting(written, at: keys), "at \(keys)")
    }
  }

  @Test func equalityHasAnIdentityShortcutAndIsStructural() throws {
    let text = "{\"a\":[1,2.5,\"x\"],\"b\":{\"c\":true}}"
    let first = try Self.parse(text)
    let second = try Self.parse(text)
    #expect(first.children?.root !== second.children?.root)
    #expect(first == second)
    #expect(first != first.setting(.int(2), at: ["a", "0"] as [WebcomKey]))
  }
}
