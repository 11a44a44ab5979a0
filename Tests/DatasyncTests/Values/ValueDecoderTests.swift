import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Datasync

@Suite struct ValueDecoderTests {
  /// A coding key for any string.
  struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(_ string: String) {
      stringValue = string
      intValue = nil
    }

    init?(stringValue: String) {
      self.init(stringValue)
    }

    init?(intValue: Int) {
      stringValue = String(intValue)
      self.intValue = intValue
    }
  }

  /// The outcome of `body`: its result, or the error it threw, summarised.
  static func attempt(_ body: () throws -> Any) -> String {
    do {
      return "\(try body())"
    } catch {
      return DecodingComparison.Failure(error).description
    }
  }

  static func spelled(_ path: [any CodingKey]) -> [String] {
    path.map(DecodingComparison.spelled)
  }

  /// Records what the keyed container API reports for an object.
  struct KeyedProbe: Decodable, Equatable {
    var report: [String] = []

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      report.append("keys \(container.allKeys.map(\.stringValue).sorted())")
      report.append("path \(spelled(container.codingPath))")
      for name in ["firstName", "first_name", "inner", "missing"] {
        report.append("contains \(name) \(container.contains(AnyKey(name)))")
      }
      report.append(attempt { try container.decodeNil(forKey: AnyKey("missing")) })
      report.append(attempt { try container.decodeNil(forKey: AnyKey("firstName")) })
      report.append(
        attempt { try container.decodeIfPresent(Int.self, forKey: AnyKey("missing")) as Any })
      report.append(attempt { try container.decode(Int.self, forKey: AnyKey("missing")) })
      report.append(
        attempt {
          let nested = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("inner"))
          return "\(spelled(nested.codingPath)) \(nested.allKeys.map(\.stringValue).sorted())"
        })
      report.append(
        attempt {
          var nested = try container.nestedUnkeyedContainer(forKey: AnyKey("list"))
          return
            "\(spelled(nested.codingPath)) \(nested.count ?? -1) \(try nested.decode(String.self))"
        })
      report.append(
        attempt {
          let superDecoder = try container.superDecoder()
          return
            "\(spelled(superDecoder.codingPath)) \(try superDecoder.singleValueContainer().decodeNil())"
        })
      report.append(
        attempt {
          let superDecoder = try container.superDecoder(forKey: AnyKey("inner"))
          let keys = try superDecoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
          return "\(spelled(superDecoder.codingPath)) \(keys.sorted())"
        })
      report.append(
        attempt {
          _ = try container.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("list"))
          return "nested"
        })
      report.append(
        attempt {
          _ = try container.nestedUnkeyedContainer(forKey: AnyKey("inner"))
          return "nested"
        })
    }
  }

  /// Records what the unkeyed container API reports, walking past the end of an array.
  struct UnkeyedProbe: Decodable, Equatable {
    var report: [String] = []

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      report.append("count \(container.count ?? -1) path \(spelled(container.codingPath))")
      for _ in 0..<6 {
        report.append("at \(container.currentIndex) end \(container.isAtEnd)")
        report.append(attempt { try container.decodeNil() })
        report.append(attempt { try container.decodeIfPresent(String.self) as Any })
      }
      report.append(attempt { try container.decode(String.self) })
      report.append(attempt { try container.decode(Int.self) })
      report.append(attempt { try container.decodeNil() })
      report.append(attempt { try container.nestedContainer(keyedBy: AnyKey.self).allKeys.count })
      report.append(attempt { try container.nestedUnkeyedContainer().count as Any })
      report.append(attempt { try container.superDecoder().codingPath.count })
    }
  }

  /// Records the nested containers and super decoders of an unkeyed container.
  struct NestedUnkeyedProbe: Decodable, Equatable {
    var report: [String] = []

    init(from decoder: any Decoder) throws {
      var container = try decoder.unkeyedContainer()
      report.append(
        attempt {
          let nested = try container.nestedContainer(keyedBy: AnyKey.self)
          return "\(spelled(nested.codingPath)) \(nested.allKeys.map(\.stringValue).sorted())"
        })
      report.append(
        attempt {
          var nested = try container.nestedUnkeyedContainer()
          return "\(spelled(nested.codingPath)) \(try nested.decode(Int.self))"
        })
      report.append(
        attempt {
          let superDecoder = try container.superDecoder()
          return
            "\(spelled(superDecoder.codingPath)) \(try superDecoder.singleValueContainer().decode(String.self))"
        })
      report.append("at \(container.currentIndex)")
      report.append(attempt { try container.nestedContainer(keyedBy: AnyKey.self).allKeys.count })
      report.append("at \(container.currentIndex)")
    }
  }

  private static let snakeCaseDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }()

  private static let customKeyDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .custom { path in
      AnyKey("\(path.last!.stringValue.uppercased())@\(path.count)")
    }
    return decoder
  }()

  @Test func keyedContainersBehaveAsJSONDecoders() {
    let values = [
      "{\"firstName\":\"Ada\",\"inner\":{\"x\":1,\"y_z\":2},\"list\":[\"a\",\"b\"],\"super\":3}",
      "{\"first_name\":\"Ada\",\"inner\":[1,2],\"list\":{\"a\":1}}",
      "{\"FIRST_NAME\":true,\"first_name\":false,\"firstName\":1}",
      "{\"list\":\"text\"}",
    ].map(DecodingComparison.model)
    for decoder in [JSONDecoder(), Self.snakeCaseDecoder, Self.customKeyDecoder] {
      for value in values {
        DecodingComparison.expectSame(KeyedProbe.self, value, decoder)
        DecodingComparison.expectSame(
          [KeyedProbe].self, .null.setting(value, at: ["0"] as [WebcomKey]), decoder)
      }
    }
  }

  @Test func unkeyedContainersBehaveAsJSONDecoders() {
    let values = [
      "[\"a\",null,\"c\"]", "{\"0\":\"a\",\"2\":\"c\",\"3\":\"d\"}", "[1,2]",
      "[{\"k\":1},[2],\"s\"]",
      "{\"a\":1}", "\"text\"", "null",
    ].map(DecodingComparison.model)
    for value in values {
      DecodingComparison.expectSame(UnkeyedProbe.self, value, JSONDecoder())
      DecodingComparison.expectSame(NestedUnkeyedProbe.self, value, JSONDecoder())
      DecodingComparison.expectSame(
        [String: UnkeyedProbe].self, .null.setting(value, at: ["k"] as [WebcomKey]), JSONDecoder())
    }
  }

  @Test(arguments: [
    ("first_name", "firstName"), ("_private_key_", "_privateKey_"), ("__a__b__", "__aB__"),
    ("URL_value", "urlValue"), ("alreadyCamel", "alreadyCamel"), ("a_1_b", "a1B"),
    ("\u{FC}mlaut_\u{FC}ber", "\u{FC}mlaut\u{DC}ber"), ("_", "_"), ("___", "___"),
    ("single_", "single_"), ("mIxEd_CaSe_wOrDs", "mixedCaseWords"),
  ])
  func snakeCaseKeysConvertAsFoundationConvertsThem(stored: String, converted: String) {
    #expect(ValueDecoderKeyedContainer<AnyKey>.convertedFromSnakeCase(stored) == converted)
    let value = JSONValue.null.setting(.int(1), at: [WebcomKey(stored)])
    DecodingComparison.expectSame(KeyedProbe.self, value, Self.snakeCaseDecoder)
    DecodingComparison.expectSame([String: Int].self, value, Self.snakeCaseDecoder)
    DecodingComparison.expectSame([WebcomKey: Int].self, value, Self.snakeCaseDecoder)
  }

  @Test func stringKeyedDictionariesKeepTheirKeysUnderAKeyStrategy() throws {
    struct Settings: Decodable, Equatable {
      var userNames: [String: String]
      var byKey: [WebcomKey: Int]
    }
    let value = DecodingComparison.model(
      "{\"user_names\":{\"ada_l\":\"Ada\"},\"by_key\":{\"b_c\":1}}")
    let settings = try ValueDecoder.decode(
      Settings.self, from: value, configuration: Self.snakeCaseDecoder)
    #expect(settings == Settings(userNames: ["ada_l": "Ada"], byKey: ["bC": 1]))
    DecodingComparison.expectSame(Settings.self, value, Self.snakeCaseDecoder)
    DecodingComparison.expectSame(Settings.self, value, Self.customKeyDecoder)
  }

  @Test func theCustomKeyStrategyReceivesTheFullPathOfEachKey() throws {
    let paths = Mutex<[[String]]>([])
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .custom { path in
      paths.withLock { $0.append(path.map(DecodingComparison.spelled)) }
      return AnyKey(path.last!.stringValue)
    }
    struct Outer: Decodable, Equatable {
      struct Inner: Decodable, Equatable { var b: Int }
      var list: [Inner]
    }
    let value = DecodingComparison.model("{\"list\":[{\"b\":1}]}")
    #expect(
      try ValueDecoder.decode(Outer.self, from: value, configuration: decoder).list == [
        Outer.Inner(b: 1)
      ])
    let ours = paths.withLock { $0 }
    paths.withLock { $0 = [] }
    _ = try decoder.decode(Outer.self, from: value.jsonData())
    #expect(ours == [["list"], ["list", "Index 0#0", "b"]])
    #expect(paths.withLock { $0 } == ours)
  }

  @Test func strategiesAndUserInfoOfTheApplicationsDecoderApply() throws {
    struct Reading: Decodable, Equatable {
      var takenAt: Date
      var payload: Data
      var level: Double
      var unit: String

      init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        takenAt = try container.decode(Date.self, forKey: AnyKey("takenAt"))
        payload = try container.decode(Data.self, forKey: AnyKey("payload"))
        level = try container.decode(Double.self, forKey: AnyKey("level"))
        unit = decoder.userInfo[CodingUserInfoKey(rawValue: "unit")!] as? String ?? "none"
      }
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .custom { decoder in
      #expect(decoder.codingPath.map(\.stringValue) == ["takenAt"])
      return Date(
        timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) * 60)
    }
    decoder.dataDecodingStrategy = .deferredToData
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "max", negativeInfinity: "min", nan: "none")
    decoder.userInfo = [CodingUserInfoKey(rawValue: "unit")!: "kPa"]
    let value = DecodingComparison.model(
      "{\"taken_at\":2,\"payload\":[104,105],\"level\":\"max\"}")
    let reading = try ValueDecoder.decode(Reading.self, from: value, configuration: decoder)
    #expect(reading.takenAt == Date(timeIntervalSince1970: 120))
    #expect(reading.payload == Data("hi".utf8))
    #expect(reading.level == .infinity)
    #expect(reading.unit == "kPa")
    DecodingComparison.expectSame(Reading.self, value, decoder)
  }

  @Test func customStrategiesAreCalledWithThisDecoderNotWithJSONText() throws {
    let decoders = Mutex<[String]>([])
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      decoders.withLock {
        $0.append("\(type(of: decoder)) \(decoder.codingPath.map(\.stringValue))")
      }
      return Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self))
    }
    let value = DecodingComparison.model("{\"when\":[5]}")
    _ = try ValueDecoder.decode([String: [Date]].self, from: value, configuration: decoder)
    #expect(decoders.withLock { $0 } == ["ValueDecoder [\"when\", \"Index 0\"]"])
  }

  @Test func aSubclassOfJSONDecoderStillDecodesTheJSONText() throws {
    final class CountingDecoder: JSONDecoder, @unchecked Sendable {
      let calls = Atomic(0)

      override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        calls.add(1, ordering: .relaxed)
        return try super.decode(type, from: data)
      }
    }
    let decoder = CountingDecoder()
    let value = DecodingComparison.model("{\"a\":[1,2]}")
    #expect(try value.decoded(as: [String: [Int]].self, decoder: decoder) == ["a": [1, 2]])
    #expect(decoder.calls.load(ordering: .relaxed) == 1)
  }

  @Test func aDecoderThatAssumesATopLevelDictionaryStillDecodesTheJSONText() throws {
    let decoder = JSONDecoder()
    decoder.assumesTopLevelDictionary = true
    let object = DecodingComparison.model("{\"a\":1}")
    #expect(
      try ValueDecoder.decode([String: Int].self, from: object, configuration: decoder) == ["a": 1])
    let (ours, theirs) = DecodingComparison.decodeBothWays(Int.self, .int(3), decoder)
    #expect(throws: DecodingError.self) { try theirs.get() }
    #expect(throws: DecodingError.self) { try ours.get() }
    if case .failure(let ours) = ours, case .failure(let theirs) = theirs {
      #expect(DecodingComparison.Failure(ours) == DecodingComparison.Failure(theirs))
    }
  }

  /// A chain of nested objects.
  final class Chain: Decodable, Equatable {
    let next: Chain?
    let label: String

    static func == (lhs: Chain, rhs: Chain) -> Bool {
      lhs.label == rhs.label && lhs.next == rhs.next
    }
  }

  @Test func theDeepestStoredValuesDecode() throws {
    var value = JSONValue.null.setting(.string("leaf"), at: ["label"] as [WebcomKey])
    for level in 1..<JSONValue.maximumDepth {
      value = JSONValue.null.setting(.string("\(level)"), at: ["label"] as [WebcomKey])
        .setting(value, at: ["next"] as [WebcomKey])
    }
    let chain = try ValueDecoder.decode(Chain.self, from: value, configuration: JSONDecoder())
    var depth = 1
    var link = chain
    while let next = link.next {
      depth += 1
      link = next
    }
    #expect(depth == JSONValue.maximumDepth)
    #expect(link.label == "leaf")
    DecodingComparison.expectSame(Chain.self, value, JSONDecoder())
  }

  @Test func numbersThatDoNotFitFailNamingTheirKeyPath() throws {
    struct Sample: Decodable { var scores: [Int8] }
    do {
      _ = try DecodingComparison.model("{\"scores\":[1,300]}")
        .decoded(as: Sample.self, decoder: JSONDecoder())
      Issue.record("decoded 300 as Int8")
    } catch {
      #expect(error.code == .decodingFailed)
      #expect(
        error.message
          == "decoding a value of type Sample failed at \"scores/1\": the data is corrupted "
          + "(The number 300 is not representable as Int8.)")
    }
    struct Count: Decodable { var count: Int }
    #expect(throws: WebcomError.self) {
      try DecodingComparison.model("{\"count\":2.5}").decoded(
        as: Count.self, decoder: JSONDecoder())
    }
    #expect(
      try DecodingComparison.model("{\"count\":3.0}").decoded(
        as: Count.self, decoder: JSONDecoder()
      )
      .count == 3)
  }

  @Test func datesThatAreNotISO8601FailNamingTheirKeyPath() {
    struct Event: Decodable { var at: Date }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    #expect(
      throws: WebcomError(
        .decodingFailed,
        "decoding a value of type Event failed at \"at\": the data is corrupted (Expected date "
          + "string to be ISO8601-formatted.)")
    ) {
      try DecodingComparison.model("{\"at\":\"yesterday\"}").decoded(
        as: Event.self, decoder: decoder)
    }
  }

  @Test func arraysAreReadFromObjectsThatStoreArraysOnly() throws {
    struct Post: Decodable, Equatable { var tags: [String?] }
    let post = DecodingComparison.model("{\"tags\":[\"a\",null,\"c\"]}")
    #expect(try post.decoded(as: Post.self, decoder: JSONDecoder()) == Post(tags: ["a", nil, "c"]))
    let notAnArray = DecodingComparison.model("{\"tags\":{\"first\":\"a\"}}")
    #expect(
      throws: WebcomError(
        .decodingFailed,
        "decoding a value of type Post failed at \"tags\": expected a value of type Array<Any> "
          + "(Expected to decode Array<Any> but found a dictionary instead.)")
    ) {
      try notAnArray.decoded(as: Post.self, decoder: JSONDecoder())
    }
    let scalar = DecodingComparison.model("{\"tags\":\"a\"}")
    #expect(
      throws: WebcomError(
        .decodingFailed,
        "decoding a value of type Post failed at \"tags\": expected a value of type Array<Any> "
          + "(Expected to decode Array<Any> but found a string instead.)")
    ) {
      try scalar.decoded(as: Post.self, decoder: JSONDecoder())
    }
    #expect(throws: WebcomError.self) {
      try post.decoded(as: [String: [String]].self, decoder: JSONDecoder())
    }
  }

  /// Datasync keys are their UTF-8 bytes: a coding key does not find a stored key that is
  /// spelled differently though canonically equivalent (JSONDecoder would find it).
  @Test func codingKeysMatchStoredKeysByTheirBytes() throws {
    let decomposed = "e\u{301}"
    let value = JSONValue.null.setting(.int(1), at: [WebcomKey(decomposed)])
    #expect(
      try ValueDecoder.decode([String: Int].self, from: value, configuration: JSONDecoder()) == [
        decomposed: 1
      ])
    #expect(throws: DecodingError.self) {
      try ValueDecoder.decode(KeyedInt.self, from: value, configuration: JSONDecoder())
    }
    #expect(try JSONDecoder().decode(KeyedInt.self, from: value.jsonData()).value == 1)
  }

  /// A value under the key "é", precomposed.
  struct KeyedInt: Decodable {
    var value: Int

    init(from decoder: any Decoder) throws {
      value = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey("\u{E9}"))
    }
  }

  @Test func decodersShareNothingAcrossThreads() throws {
    struct Message: Decodable, Equatable {
      var authorName: String
      var sentAt: Date
      var reactions: [String: Int]
      var lines: [String?]
    }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .millisecondsSince1970
    let values = (0..<16).map { index in
      DecodingComparison.model(
        "{\"author_name\":\"user \(index)\",\"sent_at\":\(index * 1000),"
          + "\"reactions\":{\"thumbs_up\":\(index)},\"lines\":[\"a\",null,\"\(index)\"]}")
    }
    let expected = values.map { try? decoder.decode(Message.self, from: $0.jsonData()) }
    let failures = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for round in 0..<200 {
        let index = (thread + round) % values.count
        let message = try? ValueDecoder.decode(
          Message.self, from: values[index], configuration: decoder)
        if message == nil || message != expected[index] { failures.add(1, ordering: .relaxed) }
      }
    }
    #expect(failures.load(ordering: .relaxed) == 0)
    #expect(expected.allSatisfy { $0 != nil })
  }
}
