import Foundation
import Testing

@testable import Datasync

/// The shortcuts of ``ValueDecoder`` (key lookups in the object's tree, arrays of scalars read
/// from the tree without an array of elements) decode as `JSONDecoder` decodes the JSON text.
@Suite struct ValueDecoderFastPathTests {
  typealias AnyKey = ValueDecoderTests.AnyKey

  /// The keys looked up: integer-looking keys, keys of 7, 8 and 9 bytes, keys that differ only
  /// after their eighth byte, multi-byte UTF-8, and keys that are not stored.
  static let lookedUpKeys = [
    "0", "7", "007", "-3", "17", "170", "abcdefg", "abcdefgh", "abcdefgh1", "abcdefgh2",
    "abcdefgh3", "abcdefgi", "\u{E9}t\u{E9}", "\u{E9}t\u{E9}s", "user_name", "userName",
    "missing",
  ]

  /// Reports, for each looked-up key, whether the container contains it and what decoding an
  /// `Int` and an optional `Int` under it gives.
  struct LookupProbe: Decodable, Equatable {
    var report: [String] = []

    init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: AnyKey.self)
      for name in ValueDecoderFastPathTests.lookedUpKeys {
        let key = AnyKey(name)
        report.append("\(name): contains \(container.contains(key))")
        report.append(ValueDecoderTests.attempt { try container.decode(Int.self, forKey: key) })
        report.append(
          ValueDecoderTests.attempt { try container.decodeIfPresent(Int.self, forKey: key) as Any })
        report.append(
          ValueDecoderTests.attempt {
            try container.decode([Int].self, forKey: key)
          })
      }
    }
  }

  static let snakeCaseDecoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    return decoder
  }()

  @Test func keysAreFoundByTheirBytesWhateverTheirShape() {
    let values = [
      "{\"0\":1,\"7\":2,\"007\":3,\"-3\":4,\"17\":5,\"abcdefg\":6,\"abcdefgh\":7,"
        + "\"abcdefgh1\":8,\"abcdefgh2\":9,\"\u{E9}t\u{E9}\":10,\"user_name\":11}",
      "{\"170\":1,\"abcdefgh3\":[1,2],\"abcdefgi\":null,\"\u{E9}t\u{E9}s\":\"x\",\"userName\":2}",
      "{\"0\":[3],\"1\":[4],\"2\":5}",
    ].map(DecodingComparison.model)
    for decoder in [JSONDecoder(), Self.snakeCaseDecoder] {
      for value in values {
        DecodingComparison.expectSame(LookupProbe.self, value, decoder)
        DecodingComparison.expectSame(
          [String: LookupProbe].self, .null.setting(value, at: ["outer"] as [WebcomKey]),
          decoder)
      }
    }
  }

  @Test func arraysOfScalarsDecodeAsJSONDecoderDecodesThem() {
    let values = [
      "[\"a\",\"b\",\"c\"]", "{\"0\":\"a\",\"2\":\"c\"}", "{\"0\":\"a\",\"2\":\"c\",\"3\":\"d\"}",
      "{\"1\":\"b\",\"2\":\"c\"}", "{\"-1\":\"x\",\"0\":\"a\",\"1\":\"b\"}",
      "{\"0\":\"a\",\"00\":\"b\",\"1\":\"c\"}", "{\"0\":\"a\",\"1\":\"b\",\"x\":\"c\"}",
      "[1,2,3]", "[1.0,2,-3e2]", "[1,\"b\",3]", "{\"0\":1,\"2\":3}", "[\"a\"]",
      "\"a\"", "null", "{\"a\":\"b\"}",
    ].map(DecodingComparison.model)
    for value in values {
      for decoder in [JSONDecoder(), Self.snakeCaseDecoder] {
        DecodingComparison.expectSame([String].self, value, decoder)
        DecodingComparison.expectSame([Int].self, value, decoder)
        DecodingComparison.expectSame([Double].self, value, decoder)
        DecodingComparison.expectSame([String?].self, value, decoder)
        DecodingComparison.expectSame(
          [String: [String]].self, .null.setting(value, at: ["list"] as [WebcomKey]), decoder)
      }
    }
  }

  /// A number that does not fit fails at its own path (a difference ``ValueDecoder`` documents).
  @Test func numbersThatDoNotFitInArraysOfIntegersFailAtTheirElement() {
    DecodingComparison.expectSame(
      [Double].self, DecodingComparison.model("[1.5,2,1e300]"), JSONDecoder())
    let value = DecodingComparison.model("[1,2.5,3]")
    DecodingComparison.expectSame([Int].self, value, JSONDecoder(), valuePath: ["Index 1#1"])
    DecodingComparison.expectSame(
      [String: [Int]].self, .null.setting(value, at: ["list"] as [WebcomKey]), JSONDecoder(),
      valuePath: ["list", "Index 1#1"])
  }

  @Test func arrayCountMatchesTheElementsOfStoredArrays() {
    let cases: [(String, Int?)] = [
      ("[\"a\",\"b\"]", 2), ("{\"0\":\"a\",\"2\":\"c\"}", 3), ("{\"0\":\"a\",\"4\":\"b\"}", nil),
      ("{\"-1\":\"x\",\"0\":\"a\",\"1\":\"b\"}", nil),
      ("{\"0\":\"a\",\"00\":\"b\",\"1\":\"c\"}", nil),
      ("{\"a\":1}", nil), ("\"a\"", nil), ("null", nil),
    ]
    for (json, count) in cases {
      let value = DecodingComparison.model(json)
      #expect(value.arrayCount == count, "\(json)")
      #expect(value.arrayElements?.count == count, "\(json)")
    }
  }

  @Test func failuresInArraysOfScalarsNameTheElement() {
    let value = DecodingComparison.model("{\"tags\":{\"0\":\"a\",\"2\":\"c\"}}")
    struct Post: Decodable { var tags: [String] }
    #expect(
      throws: WebcomError(
        .decodingFailed,
        "decoding a value of type Post failed at \"tags/1\": expected a value of type String "
          + "but found null (Cannot get value of type String -- found null value instead)")
    ) {
      try value.decoded(as: Post.self, decoder: JSONDecoder())
    }
  }
}
