import Foundation
import Testing

@testable import Datasync

/// Decodes values both ways, with ``ValueDecoder`` and with `JSONDecoder` reading the value's
/// JSON text (the behaviour before ``ValueDecoder``), and tells how the outcomes differ.
enum DecodingComparison {
  /// What a decode produced: a value (compared separately) or an error, summarised.
  struct Failure: Equatable, CustomStringConvertible {
    var kind: String
    var subject: String
    var path: [String]
    var message: String

    init(_ error: any Error) {
      guard let error = error as? DecodingError else {
        (kind, subject, path, message) = ("other", "\(type(of: error))", [], "\(error)")
        return
      }
      let context: DecodingError.Context
      switch error {
      case .typeMismatch(let type, let errorContext):
        (kind, subject, context) = ("typeMismatch", "\(type)", errorContext)
      case .valueNotFound(let type, let errorContext):
        (kind, subject, context) = ("valueNotFound", "\(type)", errorContext)
      case .keyNotFound(let key, let errorContext):
        (kind, subject, context) = ("keyNotFound", DecodingComparison.spelled(key), errorContext)
      case .dataCorrupted(let errorContext):
        (kind, subject, context) = ("dataCorrupted", "", errorContext)
      @unknown default:
        (kind, subject, path, message) = ("unknown", "", [], "\(error)")
        return
      }
      path = context.codingPath.map(DecodingComparison.spelled)
      message = context.debugDescription
    }

    var description: String { "\(kind)(\(subject)) at \(path): \(message)" }
  }

  /// A coding key with both its string and its integer value.
  static func spelled(_ key: any CodingKey) -> String {
    key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue
  }

  /// Decodes `value` with the new decoder and with `JSONDecoder` over its JSON text.
  static func decodeBothWays<T: Decodable>(
    _ type: T.Type, _ value: JSONValue, _ decoder: JSONDecoder
  ) -> (ours: Result<T, any Error>, theirs: Result<T, any Error>) {
    (
      Result { try ValueDecoder.decode(T.self, from: value, configuration: decoder) },
      Result { try decoder.decode(T.self, from: value.jsonData()) }
    )
  }

  /// `nil` when both decodes agree, else what differs. Values agree when equal or equally
  /// described (NaN); errors agree when of the same case, type or key, coding path
  /// and description, except for the two differences ``ValueDecoder`` documents: a number that
  /// does not fit, and a string that is not an ISO 8601 date, fail at `valuePath` (the path of
  /// the value that fails), where `JSONDecoder` reports the top level or the container.
  static func mismatch<T: Decodable & Equatable>(
    _ type: T.Type, _ value: JSONValue, _ decoder: JSONDecoder, valuePath: [String]
  ) -> String? {
    let (ours, theirs) = decodeBothWays(type, value, decoder)
    let context = "\(T.self) from \(value.jsonString)"
    switch (ours, theirs) {
    case (.success(let ours), .success(let theirs)):
      return ours == theirs || describe(ours) == describe(theirs)
        ? nil : "\(context): \(describe(ours)) != \(describe(theirs))"
    case (.success(let ours), .failure(let theirs)):
      return "\(context): decoded \(describe(ours)), JSONDecoder failed with \(Failure(theirs))"
    case (.failure(let ours), .success(let theirs)):
      return "\(context): failed with \(Failure(ours)), JSONDecoder decoded \(describe(theirs))"
    case (.failure(let ours), .failure(let theirs)):
      let ours = Failure(ours)
      let theirs = Failure(theirs)
      if theirs.kind == "dataCorrupted", theirs.message == "The given data was not valid JSON." {
        let named = ours.kind == "dataCorrupted" && ours.message.hasPrefix("The number ")
        return named && ours.path == valuePath
          ? nil : "\(context): \(ours), expected an unrepresentable number at \(valuePath)"
      }
      if theirs.message == "Expected date string to be ISO8601-formatted." {
        return ours.message == theirs.message && ours.path == valuePath
          ? nil : "\(context): \(ours), expected an ISO 8601 failure at \(valuePath)"
      }
      if "\(T.self)".contains("Dictionary<") {
        // JSONDecoder visits a dictionary's members in hash order, which varies between runs:
        // when several members fail, it may name another one than ours (we name the first key).
        let sameButKey =
          ours.kind == theirs.kind && ours.subject == theirs.subject
          && ours.message == theirs.message && ours.path.count == theirs.path.count
          && ours.path.dropLast() == theirs.path.dropLast()
        return sameButKey ? nil : "\(context): \(ours) != JSONDecoder's \(theirs)"
      }
      return ours == theirs ? nil : "\(context): \(ours) != JSONDecoder's \(theirs)"
    }
  }

  /// A description of a decoded value that survives dates out of the calendar's range (whose
  /// `description` traps).
  static func describe(_ value: Any) -> String {
    if let date = value as? Date { return "Date(\(date.timeIntervalSinceReferenceDate))" }
    let mirror = Mirror(reflecting: value)
    if mirror.children.isEmpty || value is Data { return String(reflecting: value) }
    let children = mirror.children.map { "\($0.label ?? "_"): \(describe($0.value))" }
    return "\(mirror.subjectType)(\(children.joined(separator: ", ")))"
  }

  /// Checks that both decodes agree, recording an issue naming the difference otherwise.
  static func expectSame<T: Decodable & Equatable>(
    _ type: T.Type, _ value: JSONValue, _ decoder: JSONDecoder, valuePath: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    if let mismatch = mismatch(type, value, decoder, valuePath: valuePath) {
      Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation)
    }
  }

  /// Parses JSON text into the value model.
  static func model(_ json: String) -> JSONValue {
    do {
      return try JSONValue.fromJSONData(Data(json.utf8))
    } catch {
      fatalError("invalid test JSON \(json): \(error)")
    }
  }
}

/// The differential test: for many types, values and decoder configurations, decoding with
/// ``ValueDecoder`` gives what `JSONDecoder` gives from the value's JSON text, errors included.
@Suite struct ValueDecoderDifferentialTests {
  /// A value in a keyed container.
  struct Field<T: Decodable & Equatable>: Decodable, Equatable {
    var v: T
  }

  /// A value in a keyed container, decoded with `decodeIfPresent`.
  struct OptionalField<T: Decodable & Equatable>: Decodable, Equatable {
    var v: T?
  }

  /// Scalars, numbers at the edges of every type, strings the special types read, objects and
  /// arrays (with a gap).
  static let values: [JSONValue] = [
    "null", "true", "false", "0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "300",
    "32767", "65535", "65536", "2147483648", "4294967296", "16777217", "9007199254740993",
    "9223372036854775807", "-9223372036854775808", "0.0", "-0.0", "3.0", "-3.0", "2.5", "-2.5",
    "0.1", "1e20", "-1e20", "1152921504606846976.0", "9223372036854775808.0",
    "-9223372036854775808.0", "18446744073709551616.0", "9007199254740992.0", "1e16", "5e-324",
    "1e-50", "1e-46", "7.006492321624085e-46", "3.4028235677973366e+38",
    "3.4028234663852886e+38", "1e39", "1.7976931348623157e308", "\"\"", "\"x\"", "\"nan\"",
    "\"+inf\"", "\"-inf\"", "\"2023-11-14T22:13:20Z\"", "\"2023-11-14T22:13:20.5+01:00\"",
    "\"https://example.com/a?b=c\"", "\"aGVsbG8=\"", "\"!!\"", "\"12\"", "\"true\"",
    "\"\\u00e9\"", "\"a\\\"b\"", "{\"a\":1,\"b\":\"x\"}", "[104,105]", "[\"x\",\"y\"]",
    "[1,null,3]", "{\"1\":\"a\"}", "{\"0\":\"a\",\"3\":\"d\"}",
  ].map(DecodingComparison.model)

  /// A decoder configured by `configure`.
  private static func decoder(_ configure: (JSONDecoder) -> Void = { _ in }) -> JSONDecoder {
    let decoder = JSONDecoder()
    configure(decoder)
    return decoder
  }

  /// The default decoder, and one with user info (which takes another path to its options).
  static let plainDecoders = [
    decoder(), decoder { $0.userInfo = [CodingUserInfoKey(rawValue: "unused")!: 1] },
  ]

  /// Decoders with every date strategy.
  static let dateDecoders = [
    decoder(),
    decoder { $0.dateDecodingStrategy = .secondsSince1970 },
    decoder { $0.dateDecodingStrategy = .millisecondsSince1970 },
    decoder { $0.dateDecodingStrategy = .iso8601 },
    decoder {
      $0.dateDecodingStrategy = .custom { decoder in
        let container = try decoder.singleValueContainer()
        let seconds = try container.decode(Double.self)
        guard seconds >= 0 else {
          throw DecodingError.dataCorruptedError(
            in: container, debugDescription: "negative at \(decoder.codingPath.count) levels")
        }
        return Date(timeIntervalSince1970: seconds)
      }
    },
  ]

  /// Decoders with every data strategy.
  static let dataDecoders = [
    decoder(),
    decoder { $0.dataDecodingStrategy = .deferredToData },
    decoder {
      $0.dataDecodingStrategy = .custom { decoder in
        Data(try decoder.singleValueContainer().decode(String.self).utf8.reversed())
      }
    },
  ]

  /// Decoders with both non-conforming float strategies.
  static let floatDecoders = [
    decoder(),
    decoder {
      $0.nonConformingFloatDecodingStrategy = .convertFromString(
        positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    },
  ]

  /// Decoders with the key strategies that convert (the custom one is checked in
  /// `ValueDecoderTests`, with keys it can convert).
  static let keyDecoders = [decoder(), decoder { $0.keyDecodingStrategy = .convertFromSnakeCase }]

  /// Checks every value at the top level, in a keyed container (with `decode` and
  /// `decodeIfPresent`) and in an unkeyed container, with every decoder.
  private static func checkEverywhere<T: Decodable & Equatable>(
    _ type: T.Type, with decoders: [JSONDecoder] = plainDecoders
  ) {
    for decoder in decoders {
      for value in values {
        DecodingComparison.expectSame(T.self, value, decoder)
        DecodingComparison.expectSame(T?.self, value, decoder)
        let field = JSONValue.null.setting(value, at: ["v"] as [WebcomKey])
        DecodingComparison.expectSame(Field<T>.self, field, decoder, valuePath: ["v"])
        DecodingComparison.expectSame(OptionalField<T>.self, field, decoder, valuePath: ["v"])
        let elements = JSONValue.null.setting(value, at: ["0"] as [WebcomKey])
          .setting(value, at: ["1"] as [WebcomKey])
        DecodingComparison.expectSame([T].self, elements, decoder, valuePath: ["Index 0#0"])
        DecodingComparison.expectSame([T?].self, elements, decoder, valuePath: ["Index 0#0"])
      }
    }
  }

  @Test func booleansAndStrings() {
    Self.checkEverywhere(Bool.self)
    Self.checkEverywhere(String.self)
  }

  @Test func signedIntegers() {
    Self.checkEverywhere(Int.self)
    Self.checkEverywhere(Int8.self)
    Self.checkEverywhere(Int16.self)
    Self.checkEverywhere(Int32.self)
    Self.checkEverywhere(Int64.self)
    Self.checkEverywhere(Int128.self)
  }

  @Test func unsignedIntegers() {
    Self.checkEverywhere(UInt.self)
    Self.checkEverywhere(UInt8.self)
    Self.checkEverywhere(UInt16.self)
    Self.checkEverywhere(UInt32.self)
    Self.checkEverywhere(UInt64.self)
    Self.checkEverywhere(UInt128.self)
  }

  @Test func floatingNumbers() {
    Self.checkEverywhere(Double.self, with: Self.floatDecoders)
    Self.checkEverywhere(Float.self, with: Self.floatDecoders)
  }

  @Test func typesJSONDecoderTreatsSpecially() {
    Self.checkEverywhere(Date.self, with: Self.dateDecoders)
    Self.checkEverywhere(Data.self, with: Self.dataDecoders)
    Self.checkEverywhere(URL.self)
    Self.checkEverywhere(Decimal.self)
  }

  @Test func collections() {
    Self.checkEverywhere([Int].self, with: Self.keyDecoders)
    Self.checkEverywhere([String?].self, with: Self.keyDecoders)
    Self.checkEverywhere([String: Int].self, with: Self.keyDecoders)
    Self.checkEverywhere([String: String].self, with: Self.keyDecoders)
    Self.checkEverywhere([Int: String].self, with: Self.keyDecoders)
    Self.checkEverywhere([WebcomKey: String].self, with: Self.keyDecoders)
  }

  /// Doubles halfway between two `Float`s round to even when converted, but JSONDecoder reads
  /// their shortest text, which rounds to one side: the decoder must follow the text.
  @Test func floatsHalfwayBetweenTwoFloatsRoundAsTheirText() {
    var generator = SystemRandomNumberGenerator()
    var halfway: [Double] = [0x1p-150, 3 * 0x1p-150, 0x1p128 - 0x1p103]
    for _ in 0..<2_000 {
      let float = Float(
        bitPattern: UInt32.random(
          in: 0..<Float.greatestFiniteMagnitude.bitPattern, using: &generator))
      halfway.append((Double(float) + Double(float.nextUp)) / 2)
      halfway.append(Double.random(in: -1e6...1e6, using: &generator))
    }
    let decoder = JSONDecoder()
    for double in halfway {
      DecodingComparison.expectSame(Float.self, .double(double), decoder)
      DecodingComparison.expectSame(Float.self, .double(-double), decoder)
    }
    #expect(ValueDecoder.isHalfwayBetweenFloats(0x1p-150))
    #expect(ValueDecoder.isHalfwayBetweenFloats(1 + 0x1p-24))
    #expect(!ValueDecoder.isHalfwayBetweenFloats(1 + 0x1p-23))
    #expect(!ValueDecoder.isHalfwayBetweenFloats(0.1))
  }

  /// Integral doubles from 2^53 on: JSONDecoder reads the digits of their shortest text.
  @Test func largeIntegralDoublesDecodeAsTheDigitsOfTheirText() throws {
    var generator = SystemRandomNumberGenerator()
    var doubles: [Double] = [0x1p53, 0x1p60, 0x1p62 + 0x1p10, 0x1p63, 0x1p64, 1e18, 1e19, 1e300]
    for _ in 0..<500 {
      doubles.append(Double(Int64.random(in: (1 << 53)...Int64.max, using: &generator)))
    }
    let decoder = JSONDecoder()
    for double in doubles {
      for value in [JSONValue.double(double), .double(-double)] {
        DecodingComparison.expectSame(Int64.self, value, decoder)
        DecodingComparison.expectSame(UInt64.self, value, decoder)
        DecodingComparison.expectSame(Int.self, value, decoder)
        DecodingComparison.expectSame(Int128.self, value, decoder)
        DecodingComparison.expectSame(Int32.self, value, decoder)
      }
    }
    #expect(
      try ValueDecoder.decode(Int64.self, from: .double(0x1p60), configuration: decoder)
        == 1_152_921_504_606_847_000)
  }
}
