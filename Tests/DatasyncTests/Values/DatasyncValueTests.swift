import Foundation
import Testing

@testable import Datasync

@Suite struct DatasyncValueTests {
  private static func value(_ json: String) throws -> DatasyncValue {
    DatasyncValue(try JSONValue.fromJSONData(Data(json.utf8)))
  }

  @Test func accessorsReturnNilForOtherTypes() throws {
    let string = try Self.value("\"hello\"")
    #expect(string.asString == "hello")
    #expect(string.asInt == nil)
    #expect(string.asDouble == nil)
    #expect(string.asBool == nil)
    #expect(string.asDictionary() == nil)
    #expect(string.asArray() == nil)
    #expect(!string.isNull)

    let int = try Self.value("42")
    #expect(int.asInt == 42)
    #expect(int.asDouble == 42)
    #expect(int.asString == nil)

    let double = try Self.value("2.0")
    #expect(double.asDouble == 2)
    #expect(double.asInt == nil)

    let bool = try Self.value("true")
    #expect(bool.asBool == true)
    #expect(bool.asBool(default: false))
    #expect(DatasyncValue.null.asBool(default: true))
    #expect(!int.asBool(default: false))
  }

  @Test func nullValue() {
    let null = DatasyncValue(.null)
    #expect(null.isNull)
    #expect(null.json == "null")
    #expect(null.description == "null")
    #expect(null.asString == nil)
    #expect(null.decoded(as: Int?.self) == .some(nil))
    #expect(null.decoded(as: Int.self) == nil)
    #expect(null == DatasyncValue.null)
  }

  @Test func keys() throws {
    #expect(try Self.value("\"room-1\"").asKey == "room-1")
    #expect(try Self.value("\"a.b\"").asKey == nil)
    #expect(try Self.value("\"\"").asKey == nil)
    #expect(try Self.value("7").asKey == nil)
  }

  @Test func childrenCountCountsEntriesAndNonNullElements() throws {
    #expect(try Self.value(#"{"b":{"c":1,"d":2},"a":"x"}"#).childrenCount == 2)
    #expect(try Self.value(#"["a", null, 3]"#).childrenCount == 2)
    #expect(try Self.value(#""hello""#).childrenCount == 0)
    #expect(try Self.value("7").childrenCount == 0)
    #expect(DatasyncValue.null.childrenCount == 0)
  }

  @Test func dictionariesAndArrays() throws {
    let object = try Self.value("{\"b\":{\"c\":1},\"a\":\"x\"}")
    let dictionary = try #require(object.asDictionary())
    #expect(dictionary.keys.sorted() == ["a", "b"])
    #expect(dictionary["a"]?.asString == "x")
    #expect(dictionary["b"]?.asDictionary()?["c"]?.asInt == 1)

    let array = try Self.value("[\"a\", null, 3]")
    let elements = try #require(array.asArray())
    #expect(elements.count == 3)
    #expect(elements[0].asString == "a")
    #expect(elements[1].isNull)
    #expect(elements[2].asInt == 3)
    #expect(array.asDictionary()?.keys.sorted() == ["0", "2"])
    // Too sparse to be an array: more than half of the slots up to the largest index are needed.
    #expect(try Self.value("[null, null, 1]").asArray() == nil)
    #expect(try Self.value("[null, 1, 2]").asArray()?.count == 3)
    #expect(try Self.value("[\"a\", null, null, \"d\"]").asArray() == nil)
    #expect(try Self.value("{\"x\":1}").asArray() == nil)
    #expect(try Self.value("1").asArray() == nil)
  }

  @Test func jsonAndData() throws {
    let value = try Self.value("{ \"b\" : [1, 2.5], \"a\" : \"q\\\"\" }")
    #expect(value.json == "{\"a\":\"q\\\"\",\"b\":[1,2.5]}")
    #expect(value.data == Data(value.json.utf8))
    #expect(value.description == value.json)
  }

  @Test func decoding() throws {
    struct Message: Codable, Equatable {
      var text: String
      var likes: Int
    }
    let value = try Self.value("{\"text\":\"hi\",\"likes\":3}")
    let message: Message? = value.decoded()
    #expect(message == Message(text: "hi", likes: 3))
    #expect(value.decoded(as: Message.self) == Message(text: "hi", likes: 3))
    let thrown: Message = try value.decodedThrows()
    #expect(thrown == Message(text: "hi", likes: 3))
    #expect(value.decoded(as: [String].self) == nil)
    // Objects that store arrays decode as arrays, with null in the gaps.
    let array = try Self.value("[\"a\", null, \"c\"]")
    #expect(array.decoded(as: [String?].self) == ["a", nil, "c"])
    #expect(array.decoded(as: [String].self) == nil)
    #expect(array.decoded(as: [String: String].self) == nil)
    do {
      _ = try value.decodedThrows(as: [String].self)
      Issue.record("decoded")
    } catch {
      #expect(error.code == .decodingFailed)
    }
  }

  @Test func decodingUsesTheApplicationDecoder() throws {
    struct Item: Decodable, Equatable { var firstName: String }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let tree = try JSONValue.fromJSONData(Data("{\"first_name\":\"Bo\"}".utf8))
    #expect(DatasyncValue(tree, decoder: decoder).decoded(as: Item.self) == Item(firstName: "Bo"))
    #expect(DatasyncValue(tree).decoded(as: Item.self) == nil)
    // Children keep the decoder.
    let parent = DatasyncValue(
      JSONValue.null.setting(tree, at: ["x"] as [WebcomKey]), decoder: decoder)
    #expect(parent.asDictionary()?["x"]?.decoded(as: Item.self) == Item(firstName: "Bo"))
  }

  @Test func creatingValuesByEncoding() throws {
    let value = try DatasyncValue(encoding: ["likes": 3, "gone": nil] as [String: Int?])
    #expect(value.json == "{\"likes\":3}")
    #expect(try DatasyncValue(encoding: [Int]()).isNull)
    #expect(DatasyncValue.null.isNull)
    do {
      _ = try DatasyncValue(encoding: ["a#b": 1])
      Issue.record("encoded a#b")
    } catch {
      #expect(error.code == .invalidKey)
    }
  }

  @Test func equalityComparesValuesOnly() throws {
    let tree = try JSONValue.fromJSONData(Data("{\"a\":1}".utf8))
    #expect(DatasyncValue(tree) == DatasyncValue(tree, decoder: JSONDecoder()))
    #expect(DatasyncValue(tree) != DatasyncValue(.int(1)))
    #expect(DatasyncValue(.int(1)) != DatasyncValue(.double(1)))
  }
}
