import Foundation
import Testing

@testable import Datasync

@Suite struct ValueDigestTests {
  @Test func equalValuesHaveEqualDigestsWhateverTheirHistory() throws {
    // Built at once, and built key by key in another order: different tree shapes.
    let pairs = (0..<500).map { (key: WebcomKey("k\($0)"), value: JSONValue.int(Int64($0))) }
    let built = JSONValue.object(JSONObject(pairs.sorted { $0.key < $1.key }))
    var inserted = JSONValue.null
    for pair in pairs.reversed() { inserted = inserted.setting(pair.value, at: [pair.key]) }
    #expect(built == inserted)
    #expect(built.digest == inserted.digest)
    // Removing then adding back gives the same digest again.
    let removed = inserted.setting(.null, at: ["k7"])
    #expect(removed.digest != inserted.digest)
    #expect(removed.setting(.int(7), at: ["k7"]).digest == built.digest)
  }

  @Test func differentValuesHaveDifferentDigests() throws {
    let values: [JSONValue] = [
      .null, .bool(false), .bool(true), .int(0), .int(1), .double(0), .double(1), .double(-0.0),
      .string(""), .string("1"), .string("a"), .string("ab"), .string("ba"),
      .string(String(repeating: "x", count: 8)), .string(String(repeating: "x", count: 9)),
      try jsonValue(#"{"a":1}"#), try jsonValue(#"{"a":"1"}"#), try jsonValue(#"{"b":1}"#),
      try jsonValue(#"{"a":{"b":1}}"#), try jsonValue(#"{"a":1,"b":2}"#),
      try jsonValue(#"{"a":2,"b":1}"#), try jsonValue("[1,2]"), try jsonValue("[2,1]"),
    ]
    let digests = Set(values.map(\.digest))
    #expect(digests.count == values.count)
  }

  @Test func digestsAreStableAcrossProcesses() throws {
    // Entity tags must survive a restart: digests are a fixed function of the data.
    #expect(JSONValue.null.entityTag == "\"e166071e7fb45925\"")
    #expect(try jsonValue(#"{"a":1,"b":[true,"x"]}"#).entityTag == "\"914ffe64412c62b2\"")
  }

  @Test func aDeepChangeRecomputesOnlyTheNewNodes() throws {
    var tree = JSONValue.null
    for index in 0..<2_000 {
      tree = tree.setting(.int(Int64(index)), at: ["list", WebcomKey("k\(index)")])
    }
    let before = tree.digest
    let changed = tree.setting(.string("new"), at: ["list", "k1000"])
    // The unchanged subtrees are shared: the old tree's digest is still cached and right.
    #expect(tree.digest == before)
    #expect(changed.digest != before)
    #expect(changed.setting(.int(1000), at: ["list", "k1000"]).digest == before)
  }

  @Test func concurrentFirstComputationsAgree() async throws {
    let pairs = (0..<5_000).map { (key: WebcomKey("k\($0)"), value: JSONValue.string("v\($0)")) }
    let value = JSONValue.object(JSONObject(pairs.sorted { $0.key < $1.key }))
    let digests = await withTaskGroup(of: UInt64.self) { group in
      for _ in 0..<8 { group.addTask { value.digest } }
      return await group.reduce(into: Set<UInt64>()) { $0.insert($1) }
    }
    #expect(digests.count == 1)
  }
}
