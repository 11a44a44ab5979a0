import Foundation
import Testing

@testable import Datasync

@Suite struct JSONValueCodableTests {
  struct Address: Codable, Equatable {
    var street: String
    var number: Int?
  }

  struct Person: Codable, Equatable {
    var name: String
    var age: Int
    var height: Double
    var nickname: String?
    var address: Address
    var previousAddresses: [Address]
    var tags: [String]
    var scores: [Int?]
    var birth: Date
    var isAdmin: Bool
    var matrix: [[Int]]
  }

  private static let person = Person(
    name: "Ada", age: 36, height: 1.65, nickname: nil,
    address: Address(street: "Main", number: 12),
    previousAddresses: [Address(street: "Old", number: nil), Address(street: "Older", number: 3)],
    tags: ["math", "engines"], scores: [10, 20, 30],
    birth: Date(timeIntervalSince1970: -4_776_192_000),
    isAdmin: true, matrix: [[1, 2], [3, 4]])

  private static func roundTrip<T: Codable & Equatable>(
    _ value: T, encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder()
  ) throws -> T {
    let model = try JSONValue.fromEncodable(value, encoder: encoder)
    return try model.decoded(as: T.self, decoder: decoder)
  }

  @Test func nestedStructsOptionalsArraysAndDatesRoundTrip() throws {
    #expect(try Self.roundTrip(Self.person) == Self.person)
    let model = try JSONValue.fromEncodable(Self.person, encoder: JSONEncoder())
    #expect(model["nickname"] == .null)
    #expect(model["age"] == .int(36))
    #expect(model["height"] == .double(1.65))
    #expect(model.value(at: ["previousAddresses", "1", "number"] as [WebcomKey]) == .int(3))
    #expect(model.value(at: ["matrix", "1", "0"] as [WebcomKey]) == .int(3))
  }

  @Test(arguments: [
    JSONEncoder.DateEncodingStrategy.deferredToDate, .secondsSince1970, .millisecondsSince1970,
    .iso8601,
  ])
  func datesFollowTheApplicationStrategies(strategy: JSONEncoder.DateEncodingStrategy) throws {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = strategy
    let decoder = JSONDecoder()
    switch strategy {
    case .secondsSince1970: decoder.dateDecodingStrategy = .secondsSince1970
    case .millisecondsSince1970: decoder.dateDecodingStrategy = .millisecondsSince1970
    case .iso8601: decoder.dateDecodingStrategy = .iso8601
    default: break
    }
    let dates = [Date(timeIntervalSince1970: 1_700_000_000), Date(timeIntervalSince1970: 0)]
    #expect(try Self.roundTrip(dates, encoder: encoder, decoder: decoder) == dates)
  }

  @Test func integralDoublesFromTheEncoderAreStoredAsIntegers() throws {
    struct Measure: Codable, Equatable { var value: Double }
    let model = try JSONValue.fromEncodable(
      [Measure(value: 3), Measure(value: 2.5)], encoder: JSONEncoder())
    #expect(model.value(at: ["0", "value"] as [WebcomKey]) == .int(3))
    #expect(model.value(at: ["1", "value"] as [WebcomKey]) == .double(2.5))
    #expect(
      try model.decoded(as: [Measure].self, decoder: JSONDecoder()) == [
        Measure(value: 3), Measure(value: 2.5),
      ])
    #expect(DatasyncValue(model.value(at: ["0", "value"] as [WebcomKey])).asDouble == 3)
  }

  @Test func keyStrategiesOfTheApplicationApply() throws {
    struct Item: Codable, Equatable { var firstName: String }
    let encoder = JSONEncoder()
    encoder.keyEncodingStrategy = .convertToSnakeCase
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let model = try JSONValue.fromEncodable(Item(firstName: "Bo"), encoder: encoder)
    #expect(model.children?.keys == ["first_name"])
    #expect(try model.decoded(as: Item.self, decoder: decoder) == Item(firstName: "Bo"))
  }

  @Test func topLevelScalarsOptionalsAndEmptyValues() throws {
    #expect(try Self.roundTrip("text") == "text")
    #expect(try Self.roundTrip(42) == 42)
    #expect(try Self.roundTrip(Int64.min) == Int64.min)
    #expect(try Self.roundTrip(2.5) == 2.5)
    #expect(try Self.roundTrip(true) == true)
    #expect(try Self.roundTrip(String?.none) == nil)
    #expect(try JSONValue.fromEncodable(String?.none, encoder: JSONEncoder()) == .null)
    #expect(try JSONValue.fromEncodable([Int](), encoder: JSONEncoder()) == .null)
    #expect(try JSONValue.fromEncodable([String: Int](), encoder: JSONEncoder()) == .null)
    #expect(try JSONValue.null.decoded(as: Int?.self, decoder: JSONDecoder()) == nil)
  }

  @Test func dictionariesKeepKeyOrder() throws {
    let model = try JSONValue.fromEncodable(
      ["b": 1, "10": 2, "a": 3, "9": 4], encoder: JSONEncoder())
    #expect(model.children?.keys == ["9", "10", "a", "b"])
    #expect(
      try model.decoded(as: [String: Int].self, decoder: JSONDecoder()) == [
        "b": 1, "10": 2, "a": 3, "9": 4,
      ])
  }

  @Test func nonFiniteNumbersAreRejectedNamingTheKeyPath() throws {
    struct Reading: Encodable { var values: [Double] }
    for number in [Double.nan, .infinity, -.infinity] {
      do {
        _ = try JSONValue.fromEncodable(Reading(values: [1, number]), encoder: JSONEncoder())
        Issue.record("accepted \(number)")
      } catch {
        #expect(error.code == .invalidValue)
        #expect(error.message.contains("\"values/1\""), "\(error.message)")
        #expect(error.message.contains("\(number)"))
      }
    }
    #expect(throws: WebcomError.self) {
      try JSONValue.fromEncodable(Float.nan, encoder: JSONEncoder())
    }
    // Unless the application's encoder turns them into strings.
    let encoder = JSONEncoder()
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
    #expect(try JSONValue.fromEncodable([Double.nan], encoder: encoder)["0"] == .string("nan"))
  }

  @Test func forbiddenKeysAreRejectedNamingTheKeyPath() throws {
    do {
      _ = try JSONValue.fromEncodable(["room": ["a.b": 1]], encoder: JSONEncoder())
      Issue.record("accepted a.b")
    } catch {
      #expect(error.code == .invalidKey)
      #expect(error.message.contains("\"room/a.b\""))
    }
  }

  @Test func otherEncoderFailuresAreEncodingFailed() {
    struct Failing: Encodable {
      func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
          "x", EncodingError.Context(codingPath: [], debugDescription: "not today"))
      }
    }
    struct Throwing: Encodable {
      struct Boom: Error {}
      func encode(to encoder: any Encoder) throws { throw Boom() }
    }
    do {
      _ = try JSONValue.fromEncodable(Failing(), encoder: JSONEncoder())
      Issue.record("encoded")
    } catch {
      #expect(error.code == .encodingFailed)
      #expect(error.message.contains("not today"))
    }
    #expect(
      throws: WebcomError(.encodingFailed, "encoding a value of type Throwing failed: Boom()")
    ) {
      try JSONValue.fromEncodable(Throwing(), encoder: JSONEncoder())
    }
  }

  @Test func decodingFailuresGiveTheDecodersReason() throws {
    let model = try JSONValue.fromEncodable(["name": "Ada"], encoder: JSONEncoder())
    do {
      _ = try model.decoded(as: Address.self, decoder: JSONDecoder())
      Issue.record("decoded")
    } catch {
      #expect(error.code == .decodingFailed)
      #expect(error.message.contains("\"street\" is missing"), "\(error.message)")
    }
    do {
      _ = try JSONValue.int(3).decoded(as: String.self, decoder: JSONDecoder())
      Issue.record("decoded")
    } catch {
      #expect(error.code == .decodingFailed)
      #expect(error.message.contains("String"))
    }
  }
}
