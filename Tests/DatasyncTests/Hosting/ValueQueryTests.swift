import Foundation
import Testing

@testable import Datasync

@Suite struct ValueQueryTests {
  /// Children whose `score` covers every kind, in the order hosted databases sort them.
  private static let scores = #"""
    {
      "a-null": {"name": "x"},
      "b-false": {"score": false},
      "c-true": {"score": true},
      "d-neg": {"score": -2.5},
      "e-int": {"score": 3},
      "f-three": {"score": 3.0},
      "g-big": {"score": 9007199254740993},
      "h-str": {"score": "apple"},
      "i-str": {"score": "Banana"},
      "j-obj": {"score": {"deep": 1}},
      "k-obj": {"score": {"other": 2}}
    }
    """#

  private func keys(_ value: JSONValue) -> [String] {
    value.children?.keys.map(\.value) ?? []
  }

  private func sortedKeys(
    _ query: ValueQuery, _ text: String = scores
  ) throws -> [String] {
    // The result is an object (in key order); re-sort it by the query's order to check it.
    let result = query.apply(to: try jsonValue(text))
    guard case .object(let object) = result else { return [] }
    let sortValue: (JSONValue) -> JSONValue
    switch query.order {
    case .key: return object.keys.map(\.value)
    case .value: sortValue = { $0 }
    case .child(let keys): sortValue = { $0.value(at: keys) }
    }
    return object.sorted {
      let order = ValueQuery.compare(sortValue($0.value), sortValue($1.value))
      return order != 0 ? order < 0 : $0.key < $1.key
    }.map(\.key.value)
  }

  @Test func childOrderFollowsTheKindsThenValuesThenKeys() throws {
    let query = try ValueQuery(order: .child(["score"]))
    #expect(
      try sortedKeys(query) == [
        "a-null", "b-false", "c-true", "d-neg", "e-int", "f-three", "g-big", "i-str", "h-str",
        "j-obj", "k-obj",
      ])
  }

  @Test func integersAndFloatingNumbersCompareExactly() {
    #expect(ValueQuery.compare(.int(3), .double(3)) == 0)
    #expect(ValueQuery.compare(.int(3), .double(3.5)) < 0)
    #expect(ValueQuery.compare(.double(-2.5), .int(-2)) < 0)
    #expect(ValueQuery.compare(.int(9_007_199_254_740_993), .double(9_007_199_254_740_992)) > 0)
    #expect(ValueQuery.compare(.int(.max), .double(9.3e18)) < 0)
    #expect(ValueQuery.compare(.int(.min), .double(-9.3e18)) > 0)
    #expect(ValueQuery.compare(.int(.min), .double(-9_223_372_036_854_775_808.0)) == 0)
    #expect(ValueQuery.compare(.bool(true), .int(-100)) < 0)
    #expect(ValueQuery.compare(.string(""), .int(100)) > 0)
  }

  @Test func rangesKeepTheBoundsInTheSameOrder() throws {
    let numbersAndUp = try ValueQuery(
      order: .child(["score"]), start: .init(.int(3), isInclusive: true))
    #expect(
      try sortedKeys(numbersAndUp) == [
        "e-int", "f-three", "g-big", "i-str", "h-str", "j-obj", "k-obj",
      ])
    let afterThree = try ValueQuery(
      order: .child(["score"]), start: .init(.int(3), isInclusive: false),
      end: .init(.string("apple"), isInclusive: false))
    #expect(try sortedKeys(afterThree) == ["g-big", "i-str"])
    let equal = try ValueQuery(
      order: .child(["score"]), start: .init(.double(3), isInclusive: true),
      end: .init(.double(3), isInclusive: true))
    #expect(try sortedKeys(equal) == ["e-int", "f-three"])
    let nulls = try ValueQuery(
      order: .child(["score"]), start: .init(.null, isInclusive: true),
      end: .init(.null, isInclusive: true))
    #expect(try sortedKeys(nulls) == ["a-null"])
  }

  @Test func limitsKeepTheFirstOrLastInTheQueryOrder() throws {
    let first = try ValueQuery(order: .child(["score"]), limit: .first(2))
    #expect(try sortedKeys(first) == ["a-null", "b-false"])
    let last = try ValueQuery(order: .child(["score"]), limit: .last(3))
    #expect(try sortedKeys(last) == ["h-str", "j-obj", "k-obj"])
    let rangeThenLimit = try ValueQuery(
      order: .child(["score"]), start: .init(.int(0), isInclusive: true), limit: .first(2))
    #expect(try sortedKeys(rangeThenLimit) == ["e-int", "f-three"])
    let none = try ValueQuery(order: .value, limit: .first(0))
    #expect(none.apply(to: try jsonValue(Self.scores)) == .null)
  }

  @Test func valueOrderSortsTheChildrenThemselves() throws {
    let text = #"{"a": 3, "b": "x", "c": 1, "d": true, "e": {"z": 1}, "f": 1}"#
    #expect(try sortedKeys(try ValueQuery(order: .value), text) == ["d", "c", "f", "a", "b", "e"])
    let top = try ValueQuery(order: .value, limit: .last(2))
    #expect(try sortedKeys(top, text) == ["b", "e"])
  }

  @Test func keyOrderUsesKeyOrderAndRanks() throws {
    let text = #"{"10": 1, "9": 1, "a": 1, "b": 1, "c": 1, "-1": 1}"#
    #expect(try sortedKeys(try ValueQuery(order: .key), text) == ["-1", "9", "10", "a", "b", "c"])
    let page = try ValueQuery(
      order: .key, start: .init(.string("9"), isInclusive: false), limit: .first(2))
    #expect(try sortedKeys(page, text) == ["10", "a"])
    let upToB = try ValueQuery(
      order: .key, end: .init(.string("b"), isInclusive: true), limit: .last(2))
    #expect(try sortedKeys(upToB, text) == ["a", "b"])
    let beforeB = try ValueQuery(order: .key, end: .init(.string("b"), isInclusive: false))
    #expect(try sortedKeys(beforeB, text) == ["-1", "9", "10", "a"])
    let absentBounds = try ValueQuery(
      order: .key, start: .init(.string("aa"), isInclusive: true),
      end: .init(.string("bb"), isInclusive: true))
    #expect(try sortedKeys(absentBounds, text) == ["b"])
    let empty = try ValueQuery(
      order: .key, start: .init(.string("c"), isInclusive: false),
      end: .init(.string("a"), isInclusive: true))
    #expect(empty.apply(to: try jsonValue(text)) == .null)
  }

  @Test func aValueWithoutChildrenGivesNull() throws {
    let query = try ValueQuery(order: .key, limit: .first(1))
    #expect(query.apply(to: .string("leaf")) == .null)
    #expect(query.apply(to: .null) == .null)
  }

  @Test func invalidQueriesAreRefusedNamingTheCulprit() {
    #expect(throws: WebcomError.self) {
      try ValueQuery(order: .key, start: .init(.int(1), isInclusive: true))
    }
    #expect(throws: WebcomError.self) { try ValueQuery(order: .child([])) }
    #expect(throws: WebcomError.self) { try ValueQuery(order: .value, limit: .last(-1)) }
  }

  @Test func randomQueriesMatchABruteForceSelection() throws {
    var generator = SeededRandom(seed: 16)
    let candidates: [JSONValue] = [
      .null, .bool(false), .bool(true), .int(-1), .int(0), .int(2), .double(0.5), .double(2),
      .string(""), .string("a"), .string("b"), .object(JSONObject([(key: "x", value: .int(1))])),
    ]
    for _ in 0..<300 {
      var pairs: [JSONObject.Element] = []
      for index in 0..<Int.random(in: 0...12, using: &generator) {
        let score = candidates.randomElement(using: &generator)!
        pairs.append(
          (
            WebcomKey("k\(index)"),
            .object(JSONObject([(key: "s", value: .int(1))]).setting(score, for: "v"))
          ))
      }
      pairs.sort { $0.key < $1.key }
      let node = JSONValue.object(JSONObject(pairs))
      let start =
        Bool.random(using: &generator)
        ? candidates.dropLast().randomElement(using: &generator) : nil
      let end =
        Bool.random(using: &generator)
        ? candidates.dropLast().randomElement(using: &generator) : nil
      let startInclusive = Bool.random(using: &generator)
      let endInclusive = Bool.random(using: &generator)
      let limitCount = Int.random(in: 0...5, using: &generator)
      let limit: ValueQuery.Limit? =
        switch Int.random(in: 0...2, using: &generator) {
        case 0: nil
        case 1: .first(limitCount)
        default: .last(limitCount)
        }
      let query = try ValueQuery(
        order: .child(["v"]), start: start.map { .init($0, isInclusive: startInclusive) },
        end: end.map { .init($0, isInclusive: endInclusive) }, limit: limit)
      // Brute force: sort everything, filter, limit.
      var expected = pairs.sorted {
        let order = ValueQuery.compare($0.value["v"], $1.value["v"])
        return order != 0 ? order < 0 : $0.key < $1.key
      }
      expected.removeAll { pair in
        let value = pair.value["v"]
        if let start {
          let order = ValueQuery.compare(value, start)
          if order < 0 || (order == 0 && !startInclusive) { return true }
        }
        if let end {
          let order = ValueQuery.compare(value, end)
          if order > 0 || (order == 0 && !endInclusive) { return true }
        }
        return false
      }
      switch limit {
      case .first(let count)?: expected = Array(expected.prefix(count))
      case .last(let count)?: expected = Array(expected.suffix(count))
      case nil: break
      }
      #expect(
        keys(query.apply(to: node))
          == expected.map(\.key.value).sorted { WebcomKey($0) < WebcomKey($1) })
    }
  }
}
