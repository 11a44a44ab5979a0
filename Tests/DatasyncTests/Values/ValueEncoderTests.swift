import Foundation
import Testing

@testable import Datasync

/// The value encoder gives what `JSONEncoder`'s text parsed into the value model gives, for every
/// strategy, and checks depth as it goes.
@Suite struct ValueEncoderTests {
  // MARK: Fixtures

  /// A key named at run time.
  struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Members written through a keyed container (so that key strategies apply to them).
  struct Members<Value: Encodable>: Encodable {
    var members: [(String, Value)]

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: NameKey.self)
      for (name, value) in members { try container.encode(value, forKey: NameKey(name)) }
    }
  }

  struct Numbers: Encodable {
    var int = Int.min
    var int8 = Int8.min
    var int16 = Int16.max
    var int32 = Int32.min
    var int64 = Int64.max
    var uint = UInt.max
    var uint8 = UInt8.max
    var uint16 = UInt16.max
    var uint32 = UInt32.max
    var uint64 = UInt64.max
    var smallUInt64: UInt64 = 42
    var int128 = Int128.max
    var smallInt128: Int128 = -7
    var uint128 = UInt128.max
    var floats: [Float] = [
      3, 0.1, 1e7, 1e8, 16_777_216, 16_777_218, -0.0, 1.5, .leastNonzeroMagnitude,
    ]
    var float: Float = 0.1
    var doubles: [Double] = [
      3, -0.0, 0.1, 1.5, 1e15, 9_007_199_254_740_992, 9_007_199_254_740_994, 1e16, -1e16,
      .leastNonzeroMagnitude,
      1e-5, 1.5e300, 123_456_789_012_345, .greatestFiniteMagnitude,
    ]
    var double = 2.5
    var decimals: [Decimal] = [
      Decimal(string: "3.50")!, Decimal(string: "12345678901234567890123")!, 3,
      Decimal(string: "-0")!, Decimal(string: "-1.25")!,
    ]
    var optionals: [Int?] = [1, nil, 3]
  }

  class Animal: Encodable {
    var name = "generic"
    private enum CodingKeys: String, CodingKey { case name }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(name, forKey: .name)
    }
  }

  final class Dog: Animal {
    var barks = true
    private enum CodingKeys: String, CodingKey { case barks, inherited }
    override func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(barks, forKey: .barks)
      try super.encode(to: container.superEncoder())
      try super.encode(to: container.superEncoder(forKey: .inherited))
    }
  }

  /// Nested containers of every kind, written in an unusual order.
  struct Containers: Encodable {
    enum Keys: String, CodingKey { case list, object, late, listOfObjects, scalar }
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      var list = container.nestedUnkeyedContainer(forKey: .list)
      var object = container.nestedContainer(keyedBy: Keys.self, forKey: .object)
      try container.encode("first", forKey: .scalar)
      try list.encode(1)
      var inner = list.nestedContainer(keyedBy: Keys.self)
      try inner.encode(true, forKey: .late)
      var innerList = list.nestedUnkeyedContainer()
      try innerList.encode("x")
      try innerList.encodeNil()
      try innerList.encode("z")
      try list.encodeNil()
      try object.encode(2.5, forKey: .scalar)
      try object.encodeNil(forKey: .late)
      var listOfObjects = object.nestedUnkeyedContainer(forKey: .listOfObjects)
      try listOfObjects.encode(["k": "v"])
      try encodePair(into: list.superEncoder())
      try container.encode("second", forKey: .scalar)
    }

    private func encodePair(into encoder: any Encoder) throws {
      var single = encoder.singleValueContainer()
      try single.encode([1, 2])
    }
  }

  enum Color: String, Encodable, CodingKeyRepresentable {
    case redDot, blueSky
  }

  struct Wrapper<Wrapped: Encodable>: Encodable {
    var wrapped: Wrapped
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(wrapped)
    }
  }

  struct Empty: Encodable {
    func encode(to encoder: any Encoder) throws {}
  }

  struct Address: Encodable {
    var street: String
    var number: Int?
  }

  struct Person: Encodable {
    var name = "Ada"
    var age = 36
    var height = 1.65
    var nickname: String?
    var address = Address(street: "Main", number: 12)
    var previousAddresses = [
      Address(street: "Old", number: nil), Address(street: "Older", number: 3),
    ]
    var tags = ["math", "engines"]
    var scores: [Int?] = [10, nil, 30]
    var birth = Date(timeIntervalSince1970: -4_776_192_000)
    var isAdmin = true
    var matrix = [[1, 2], [3, 4]]
    var serverDate = WebcomDate.backEndCurrentDate
    var date = WebcomDate(Date(timeIntervalSince1970: 1_700_000_000))
  }

  private static let person = Person()

  // MARK: Comparison with JSONEncoder

  /// What the value gives through `JSONEncoder`'s text, as the value model parses it.
  private static func throughText<T: Encodable>(_ value: T, _ encoder: JSONEncoder) throws
    -> JSONValue
  {
    let data: Data
    do {
      data = try encoder.encode(value)
    } catch let error as EncodingError {
      throw WebcomError(encodingError: error, type: T.self)
    }
    return try JSONValue.fromJSONData(data)
  }

  private static func direct<T: Encodable>(_ value: T, _ encoder: JSONEncoder) -> Result<
    JSONValue, WebcomError
  > {
    do throws(WebcomError) {
      return .success(try ValueEncoder(configuration: encoder).encode(value))
    } catch {
      return .failure(error)
    }
  }

  /// Expects the same value (or the same error code) from both routes.
  private static func expectSame<T: Encodable>(
    _ value: T, _ encoder: JSONEncoder = JSONEncoder(),
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let text = Result { try throughText(value, encoder) }
    switch (direct(value, encoder), text) {
    case (.success(let lhs), .success(let rhs)):
      // The model's equality tells integers from floating numbers.
      #expect(lhs == rhs, "\(lhs.jsonString) != \(rhs.jsonString)", sourceLocation: sourceLocation)
    case (.failure(let lhs), .failure(let rhs)):
      #expect(
        lhs.code == (rhs as? WebcomError)?.code, "\(lhs) vs \(rhs)", sourceLocation: sourceLocation)
    case (.success(let lhs), .failure(let rhs)):
      Issue.record(
        "encoded \(lhs.jsonString), JSONEncoder failed: \(rhs)", sourceLocation: sourceLocation)
    case (.failure(let lhs), .success(let rhs)):
      Issue.record(
        "failed: \(lhs), JSONEncoder gave \(rhs.jsonString)", sourceLocation: sourceLocation)
    }
  }

  private static func encoder(_ configure: (JSONEncoder) -> Void) -> JSONEncoder {
    let encoder = JSONEncoder()
    configure(encoder)
    return encoder
  }

  @Test func structsOptionalsArraysAndNestedValuesMatchJSONEncoder() {
    Self.expectSame(Self.person)
    Self.expectSame([Self.person, Self.person])
    Self.expectSame(["a": [1, 2], "b": []] as [String: [Int]])
    Self.expectSame([[String]]([["a"], [], ["b", "c"]]))
    Self.expectSame([String?]([nil, nil]))
    Self.expectSame(["x": nil, "y": 1] as [String: Int?])
    Self.expectSame(Wrapper(wrapped: Wrapper(wrapped: ["k": 1])))
    Self.expectSame(["empty": Empty()])
    Self.expectSame([Empty()])
    Self.expectSame(Wrapper(wrapped: Empty()))
  }

  @Test func plainValuesNeedNoEncoderAndMatchJSONEncoder() throws {
    // Strategies that change dates, data, keys and floating numbers change none of these.
    let encoder = Self.encoder {
      $0.keyEncodingStrategy = .convertToSnakeCase
      $0.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+", negativeInfinity: "-", nan: "n")
    }
    func expectPlain<T: Encodable>(_ value: T, _ expected: JSONValue) throws {
      #expect(ValueEncoding.plainValue(of: value) == expected)
      #expect(try JSONValue.fromEncodable(value, encoder: encoder) == expected)
      #expect(try Self.throughText(value, encoder) == expected)
    }
    try expectPlain("some_Key", .string("some_Key"))
    try expectPlain("", .string(""))
    try expectPlain(true, .bool(true))
    try expectPlain(Int.min, .int(Int64.min))
    try expectPlain(Int64.max, .int(Int64.max))
    try expectPlain(Int32.min, .int(Int64(Int32.min)))
    try expectPlain(Int16(-7), .int(-7))
    try expectPlain(Int8(-8), .int(-8))
    try expectPlain(UInt32.max, .int(Int64(UInt32.max)))
    try expectPlain(UInt16.max, .int(Int64(UInt16.max)))
    try expectPlain(UInt8.max, .int(255))
    // Values whose encoding depends on the encoder or on their magnitude are not plain.
    #expect(ValueEncoding.plainValue(of: 1.5) == nil)
    #expect(ValueEncoding.plainValue(of: Float(2)) == nil)
    #expect(ValueEncoding.plainValue(of: UInt64.max) == nil)
    #expect(ValueEncoding.plainValue(of: UInt(1)) == nil)
    #expect(ValueEncoding.plainValue(of: Date(timeIntervalSince1970: 0)) == nil)
    #expect(ValueEncoding.plainValue(of: Data([1])) == nil)
    #expect(ValueEncoding.plainValue(of: ["a"]) == nil)
    #expect(ValueEncoding.plainValue(of: Optional(1)) == nil)
  }

  @Test func numbersMatchJSONEncoder() {
    Self.expectSame(Numbers())
    for double in Numbers().doubles {
      Self.expectSame(double)
      Self.expectSame(-double)
    }
    for float in Numbers().floats { Self.expectSame(float) }
    var random = SeededRandom(seed: 12)
    for _ in 0..<2_000 {
      let double = Double(bitPattern: random.next())
      if double.isFinite { Self.expectSame([double, double.rounded()]) }
      let float = Float(bitPattern: UInt32(truncatingIfNeeded: random.next()))
      if float.isFinite { Self.expectSame([float, float.rounded()]) }
      Self.expectSame([Int64(bitPattern: random.next()) >> (random.next() % 64)])
    }
  }

  @Test func dateStrategiesMatchJSONEncoder() {
    let dates = [
      Date(timeIntervalSince1970: 1_700_000_000.123), Date(timeIntervalSince1970: 0),
      Date(timeIntervalSinceReferenceDate: 12.5), Date(timeIntervalSince1970: -4_776_192_000),
    ]
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    formatter.timeZone = TimeZone(identifier: "UTC")
    let strategies: [JSONEncoder.DateEncodingStrategy] = [
      .deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601, .formatted(formatter),
      .custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode("day \(Int(date.timeIntervalSince1970) / 86_400)")
      },
      .custom { date, encoder in
        var container = encoder.container(keyedBy: NameKey.self)
        try container.encode(date.timeIntervalSince1970, forKey: NameKey("seconds"))
        try container.encode(encoder.codingPath.count, forKey: NameKey("depth"))
      },
      .custom { _, _ in },
    ]
    for strategy in strategies {
      let encoder = Self.encoder { $0.dateEncodingStrategy = strategy }
      Self.expectSame(dates, encoder)
      Self.expectSame(["at": dates[0]], encoder)
      Self.expectSame(Self.person, encoder)
    }
  }

  @Test func dataStrategiesMatchJSONEncoder() {
    let blobs = [Data([0, 1, 2, 255]), Data(), Data("hello".utf8)]
    let strategies: [JSONEncoder.DataEncodingStrategy] = [
      .deferredToData, .base64,
      .custom { data, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(data.count)
      },
      .custom { _, _ in },
    ]
    for strategy in strategies {
      let encoder = Self.encoder { $0.dataEncodingStrategy = strategy }
      Self.expectSame(blobs, encoder)
      Self.expectSame(["blob": blobs[0]], encoder)
    }
  }

  @Test func urlsDecimalsAndSpecialDictionariesMatchJSONEncoder() throws {
    Self.expectSame([URL(string: "http://a.b/c?d=e")!, URL(fileURLWithPath: "/tmp/x")])
    Self.expectSame(Numbers().decimals)
    Self.expectSame([1: "a", 20: "b", -3: "c"] as [Int: String])
    Self.expectSame([Color.redDot: 1, .blueSky: 2])
    Self.expectSame([1.5: "a", 2.5: "b"] as [Double: String])
    Self.expectSame(Dog())
    Self.expectSame(Containers())
  }

  @Test func keyStrategiesMatchJSONEncoder() {
    let names = [
      "myURLProperty", "oneTwoThree", "_leading_", "property2Value", "aB", "ABC", "h\u{E9}llo",
      "already_snake", "x", "\u{C9}t\u{E9}\u{C0}", "HTTPResponseCode", "a", "A", "URL", "urlID",
      "ID", "iOS", "_", "__x__", "\u{1C5}ab", "\u{3A3}\u{3B9}\u{3B3}", "e\u{301}Xy", "aB\u{301}c",
      "12Ab", "stra\u{DF}eWeg", "camelCase_Mixed", "aBCdEF",
    ]
    let custom = JSONEncoder.KeyEncodingStrategy.custom { path in
      NameKey("\(path.count)-\(path.last!.stringValue.uppercased())")
    }
    for strategy in [JSONEncoder.KeyEncodingStrategy.convertToSnakeCase, custom, .useDefaultKeys] {
      let encoder = Self.encoder { $0.keyEncodingStrategy = strategy }
      Self.expectSame(Members(members: names.map { ($0, 1) }), encoder)
      Self.expectSame(
        Members(members: [("outerKey", Members(members: [("innerKey", 2)]))]), encoder)
      // String-keyed dictionaries keep their keys; others go through the strategy.
      Self.expectSame(["dictKey": ["innerKey": 1]], encoder)
      Self.expectSame([1: [2: 3]] as [Int: [Int: Int]], encoder)
      Self.expectSame([Color.redDot: 1], encoder)
      Self.expectSame(Dog(), encoder)
      Self.expectSame(Self.person, encoder)
    }
  }

  @Test func randomKeysConvertToSnakeCaseAsJSONEncoderDoes() {
    let alphabet = Array("aAbBzZ_09\u{E9}\u{C9}\u{DF}\u{1C5}\u{3A3}\u{3C3}\u{301}-")
    var random = SeededRandom(seed: 7)
    let encoder = Self.encoder { $0.keyEncodingStrategy = .convertToSnakeCase }
    for _ in 0..<3_000 {
      let length = Int(random.next() % 9) + 1
      let name = String(
        (0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
      Self.expectSame(Members(members: [(name, 1)]), encoder)
    }
  }

  @Test func nonConformingFloatStrategiesMatchJSONEncoder() {
    let encoder = Self.encoder {
      $0.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    }
    Self.expectSame([Double.nan, .infinity, -.infinity, 1], encoder)
    Self.expectSame([Float.nan, .infinity, -.infinity, 1], encoder)
    Self.expectSame(["x": Double.infinity], encoder)
    Self.expectSame(Double.nan, encoder)
  }

  @Test func invalidKeysAndServerValuesMatchTheParser() {
    Self.expectSame(["room": ["a.b": 1]])
    Self.expectSame(["": 1])
    Self.expectSame([String(repeating: "k", count: 769): 1])
    Self.expectSame(["ok": ["x/y": 1]])
    Self.expectSame(["at": WebcomDate.backEndCurrentDate])
    Self.expectSame(WebcomDate.backEndCurrentDate)
    Self.expectSame([".sv": "other"])
    Self.expectSame([".sv": "timestamp", "b": "c"])
  }

  // MARK: Errors and limits

  @Test func errorsNameTheKeyPath() throws {
    struct Reading: Encodable { var values: [Double] }
    let error = try #require(
      throws: WebcomError.self,
      performing: {
        try ValueEncoder(configuration: JSONEncoder()).encode(Reading(values: [1, .nan]))
      })
    #expect(error.code == .invalidValue)
    #expect(error.message.contains("\"values/1\""), "\(error.message)")
    #expect(error.message.contains("Reading"))
    let keyError = try #require(
      throws: WebcomError.self,
      performing: {
        try ValueEncoder(configuration: JSONEncoder()).encode([
          "room": ["list": [["ok": 1], ["a#b": 1]]]
        ])
      })
    #expect(keyError.code == .invalidKey)
    #expect(keyError.message.contains("\"room/list/1/a#b\""), "\(keyError.message)")
  }

  /// A value nested `levels` deep, made as it is encoded (no stored chain).
  struct Nested: Encodable {
    let levels: Int
    let deepest: Deepest

    final class Deepest {
      var value = 0
    }

    func encode(to encoder: any Encoder) throws {
      deepest.value = max(deepest.value, encoder.codingPath.count)
      var container = encoder.container(keyedBy: NameKey.self)
      if levels > 0 {
        try container.encode(Nested(levels: levels - 1, deepest: deepest), forKey: NameKey("k"))
      } else {
        try container.encode(1, forKey: NameKey("leaf"))
      }
    }
  }

  @Test func tenThousandLevelsFailAtTheLimitWithoutDescending() throws {
    let deepest = Nested.Deepest()
    let error = try #require(
      throws: WebcomError.self,
      performing: {
        try ValueEncoder(configuration: JSONEncoder()).encode(
          Nested(levels: 10_000, deepest: deepest))
      })
    #expect(error.code == .invalidValue)
    #expect(error.message.contains("nested deeper than 32 levels"), "\(error.message)")
    #expect(deepest.value == 32)
  }

  @Test func thirtyTwoLevelsAreTheLimit() throws {
    let value = try ValueEncoder(configuration: JSONEncoder()).encode(
      Nested(levels: 31, deepest: Nested.Deepest()))
    let keys = [WebcomKey](repeating: "k", count: 31) + ["leaf"]
    #expect(value.value(at: keys) == .int(1))
    #expect(throws: WebcomError.self) {
      try ValueEncoder(configuration: JSONEncoder()).encode(
        Nested(levels: 32, deepest: Nested.Deepest()))
    }
    Self.expectSame(Nested(levels: 31, deepest: Nested.Deepest()))
    Self.expectSame(Nested(levels: 32, deepest: Nested.Deepest()))
    // Arrays count as levels too.
    #expect(throws: WebcomError.self) {
      try ValueEncoder(configuration: JSONEncoder()).encode(NestedArray(depth: 33))
    }
    #expect(try ValueEncoder(configuration: JSONEncoder()).encode(NestedArray(depth: 32)) != .null)
  }

  /// Arrays of scalars `levels` objects deep.
  struct NestedScalars: Encodable {
    let levels: Int
    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: NameKey.self)
      if levels > 0 {
        try container.encode(NestedScalars(levels: levels - 1), forKey: NameKey("k"))
      } else {
        try container.encode(["a", "b"], forKey: NameKey("strings"))
        try container.encode([1, 2], forKey: NameKey("ints"))
        try container.encode([true], forKey: NameKey("bools"))
        try container.encode([String](), forKey: NameKey("none"))
      }
    }
  }

  @Test func arraysOfScalarsCountAsALevel() {
    Self.expectSame(NestedScalars(levels: 30))
    Self.expectSame(NestedScalars(levels: 31))
    guard case .failure(let error) = Self.direct(NestedScalars(levels: 31), JSONEncoder()) else {
      Issue.record("encoded")
      return
    }
    #expect(error.message.contains("/k/strings/0\""), "\(error.message)")
  }

  /// An array nested `depth` levels deep holding 1.
  struct NestedArray: Encodable {
    let depth: Int
    func encode(to encoder: any Encoder) throws {
      var container = encoder.unkeyedContainer()
      if depth > 1 {
        try container.encode(NestedArray(depth: depth - 1))
      } else {
        try container.encode(1)
      }
    }
  }

  /// A chain of single-value wrappers `levels` long, made as it is encoded.
  struct WrapperChain: Encodable {
    let levels: Int
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      if levels > 0 {
        try container.encode(WrapperChain(levels: levels - 1))
      } else {
        try container.encode("end")
      }
    }
  }

  @Test func wrapperChainsAreBounded() throws {
    #expect(
      try ValueEncoder(configuration: JSONEncoder()).encode(WrapperChain(levels: 100))
        == .string("end"))
    let error = try #require(
      throws: WebcomError.self,
      performing: {
        try ValueEncoder(configuration: JSONEncoder()).encode(WrapperChain(levels: 10_000))
      })
    #expect(error.code == .invalidValue)
  }

  @Test func misusesOfTheEncoderFailWithoutCrashing() {
    struct KeyedAfterSingle: Encodable {
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        var keyed = encoder.container(keyedBy: NameKey.self)
        try keyed.encode(2, forKey: NameKey("x"))
      }
    }
    struct TwoSingles: Encodable {
      func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(1)
        try single.encode(2)
      }
    }
    struct UnkeyedAfterKeyed: Encodable {
      func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: NameKey.self)
        try keyed.encode(2, forKey: NameKey("x"))
        var unkeyed = encoder.unkeyedContainer()
        try unkeyed.encode(1)
      }
    }
    struct NestedInvalidKey: Encodable {
      func encode(to encoder: any Encoder) throws {
        var keyed = encoder.container(keyedBy: NameKey.self)
        var nested = keyed.nestedUnkeyedContainer(forKey: NameKey("a$b"))
        try nested.encode(1)
      }
    }
    for (value, code) in [
      (KeyedAfterSingle() as any Encodable, WebcomError.Code.encodingFailed),
      (TwoSingles(), .encodingFailed), (UnkeyedAfterKeyed(), .encodingFailed),
      (Empty(), .encodingFailed),
      (NestedInvalidKey(), .invalidKey),
    ] {
      switch Self.direct(value, JSONEncoder()) {
      case .success(let encoded): Issue.record("encoded \(encoded.jsonString)")
      case .failure(let error): #expect(error.code == code, "\(error)")
      }
    }
  }

  @Test func userInfoAndCodingPathsReachTheEncodedTypes() throws {
    struct Probe: Encodable {
      static let key = CodingUserInfoKey(rawValue: "probe")!
      func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: NameKey.self)
        try container.encode(
          encoder.userInfo[Probe.key] as? String ?? "none", forKey: NameKey("info"))
        try container.encode(
          encoder.codingPath.map(\.stringValue).joined(separator: "."), forKey: NameKey("path"))
      }
    }
    let encoder = Self.encoder { $0.userInfo[Probe.key] = "hello" }
    let value = try ValueEncoder(configuration: encoder).encode(["outer": [Probe()]])
    #expect(value.value(at: ["outer", "0", "info"] as [WebcomKey]) == .string("hello"))
    #expect(value.value(at: ["outer", "0", "path"] as [WebcomKey]) == .string("outer.Index 0"))
    Self.expectSame(["outer": [Probe()]], encoder)
  }

  // MARK: Members for merges

  private static func members<T: Encodable>(_ value: T) throws -> [JSONObject.Element]? {
    guard
      case .members(let members) = try ValueEncoder(configuration: JSONEncoder()).encodeMembers(
        value)
    else { return nil }
    return members
  }

  @Test func membersKeepRawKeysAndExplicitNulls() throws {
    let paths = try #require(try Self.members(["c": nil, "a/b": 1] as [String: Int?]))
    #expect(paths.map(\.key) == ["a/b", "c"])
    #expect(paths.map(\.value) == [.int(1), .null])
    let emptied = try #require(
      try Self.members(["d": [:], "e": ["k": nil]] as [String: [String: Int?]]))
    #expect(emptied.map(\.key) == ["d", "e"])
    #expect(emptied.map(\.value) == [.null, .null])
    let elements = try #require(try Self.members([1, nil, 3] as [Int?]))
    #expect(elements.map(\.key) == ["0", "1", "2"])
    #expect(elements.map(\.value) == [.int(1), .null, .int(3)])
    let wrapped = try #require(try Self.members(Wrapper(wrapped: ["x": Int?.none])))
    #expect(wrapped.map(\.key) == ["x"] && wrapped.map(\.value) == [.null])
    #expect(try Self.members([String: Int]())?.isEmpty == true)
    #expect(throws: WebcomError.self) { try Self.members(Empty()) }
    let encoder = ValueEncoder(configuration: JSONEncoder())
    guard case .other(.string("text")) = try encoder.encodeMembers("text") else {
      Issue.record("members of a string")
      return
    }
    guard case .other(.null) = try encoder.encodeMembers(Int?.none) else {
      Issue.record("members of null")
      return
    }
  }
}
