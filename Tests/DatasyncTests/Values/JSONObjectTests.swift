import Foundation
import Testing

@testable import Datasync

@Suite struct JSONObjectTests {
  /// A model of the map: a dictionary, sorted on demand.
  private struct Model {
    var values: [WebcomKey: Int64] = [:]
    var sortedKeys: [WebcomKey] { values.keys.sorted() }
  }

  private static func randomKey(using generator: inout SeededRandom) -> WebcomKey {
    switch Int.random(in: 0..<4, using: &generator) {
    case 0: WebcomKey(String(Int.random(in: -50...300, using: &generator)))
    case 1: WebcomKey("0" + String(Int.random(in: 0...30, using: &generator)))
    case 2:
      WebcomKey(
        String(
          (0..<Int.random(in: 1...3, using: &generator)).map { _ in
            "abz\u{E9}_-".randomElement(using: &generator)!
          }))
    default: WebcomKey("key-" + String(Int.random(in: 0...200, using: &generator)))
    }
  }

  private static func check(_ object: JSONObject, against model: Model, probes: [WebcomKey]) {
    let sortedKeys = model.sortedKeys
    #expect(object.isValid)
    #expect(object.count == sortedKeys.count)
    #expect(object.isEmpty == sortedKeys.isEmpty)
    #expect(object.map(\.key) == sortedKeys)
    #expect(object.map(\.value) == sortedKeys.map { .int(model.values[$0]!) })
    #expect(object.first?.key == sortedKeys.first)
    #expect(object.last?.key == sortedKeys.last)
    for (rank, key) in sortedKeys.enumerated() {
      #expect(object.element(atRank: rank).key == key)
    }
    for probe in probes {
      let rank = sortedKeys.count { $0 < probe }
      #expect(object.rank(of: probe) == rank)
      #expect(object[probe] == model.values[probe].map { .int($0) })
      #expect(object.key(before: probe) == sortedKeys.last { $0 < probe })
      #expect(object.key(after: probe) == sortedKeys.first { probe < $0 })
    }
  }

  @Test func randomizedUpdatesMatchASortedDictionary() {
    var generator = SeededRandom(seed: 2026)
    var object = JSONObject()
    var model = Model()
    var snapshots: [(JSONObject, Model)] = []
    for step in 0..<3_000 {
      let key = Self.randomKey(using: &generator)
      if Int.random(in: 0..<3, using: &generator) == 0 {
        object = object.removing(key)
        model.values[key] = nil
      } else if Int.random(in: 0..<10, using: &generator) == 0 {
        object = object.setting(.null, for: key)
        model.values[key] = nil
      } else {
        let value = Int64(step)
        object = object.setting(.int(value), for: key)
        model.values[key] = value
      }
      if step.isMultiple(of: 150) {
        let probes = (0..<20).map { _ in Self.randomKey(using: &generator) }
        Self.check(object, against: model, probes: probes + model.values.keys.prefix(10))
        snapshots.append((object, model))
      }
    }
    // Earlier versions are untouched by later updates.
    for (snapshot, snapshotModel) in snapshots {
      Self.check(snapshot, against: snapshotModel, probes: [])
    }
  }

  @Test func versionsDerivedOnSeveralThreadsLeaveTheSharedBaseUntouched() {
    let base = JSONObject((0..<500).map { (WebcomKey(String($0)), JSONValue.int(Int64($0))) })
    let done = DispatchSemaphore(value: 0)
    let failures = FailureCounter()
    for thread in 0..<4 {
      Thread.detachNewThread {
        var version = base
        for step in 0..<2_000 {
          let key = WebcomKey(String((step * 7 + thread) % 700))
          version =
            step.isMultiple(of: 3)
            ? version.removing(key) : version.setting(.int(Int64(-step)), for: key)
        }
        if !version.isValid || base.count != 500 || base["499"] != .int(499) {
          failures.record()
        }
        done.signal()
      }
    }
    for _ in 0..<4 { #expect(done.wait(timeout: .now() + 60) == .success) }
    #expect(failures.count == 0)
    #expect(base.isValid)
    #expect(base.keys == (0..<500).map { WebcomKey(String($0)) })
  }

  @Test func largeSequentialAndReverseInsertionsStayBalanced() {
    var ascending = JSONObject()
    var descending = JSONObject()
    for index in 0..<5_000 {
      ascending = ascending.setting(.int(Int64(index)), for: WebcomKey(String(index)))
      descending = descending.setting(.int(Int64(index)), for: WebcomKey(String(4_999 - index)))
    }
    #expect(ascending.isValid)
    #expect(descending.isValid)
    #expect(ascending.count == 5_000)
    #expect(ascending.map(\.key) == descending.map(\.key))
    for index in stride(from: 0, to: 5_000, by: 2) {
      ascending = ascending.removing(WebcomKey(String(index)))
    }
    #expect(ascending.isValid)
    #expect(ascending.map(\.key) == stride(from: 1, to: 5_000, by: 2).map { WebcomKey(String($0)) })
    #expect(ascending.element(atRank: 10).key == "21")
    #expect(ascending.rank(of: "21") == 10)
    #expect(ascending.rank(of: "22") == 11)
  }

  @Test func bulkBuildEqualsInsertions() {
    let pairs: [JSONObject.Element] = (0..<1_000).map { (WebcomKey(String($0)), .int(Int64($0))) }
    let built = JSONObject(pairs)
    var inserted = JSONObject()
    for (key, value) in pairs.shuffled() { inserted = inserted.setting(value, for: key) }
    #expect(built.isValid)
    #expect(built == inserted)
    #expect(built.count == 1_000)
    #expect(JSONObject([("a", .null), ("b", .int(1))]).keys == ["b"])
  }

  @Test func rangesOfElements() {
    let object = JSONObject((0..<100).map { (WebcomKey(String($0)), JSONValue.int(Int64($0))) })
    #expect(object.elements(from: 10, count: 5).map(\.key) == ["10", "11", "12", "13", "14"])
    #expect(object.elements(from: 98, count: 5).map(\.key) == ["98", "99"])
    #expect(object.elements(from: 100, count: 5).map(\.key).isEmpty)
    #expect(object.elements(from: -3, count: 2).map(\.key) == ["0", "1"])
    #expect(object.elements(in: 3..<5).map(\.key) == ["3", "4"])
    for start in stride(from: 0, to: 100, by: 7) {
      #expect(
        object.elements(from: start, count: 9).map(\.key)
          == Array(object.keys.dropFirst(start).prefix(9)))
    }
  }

  @Test func missingKeysAndEmptyMaps() {
    let empty = JSONObject()
    #expect(empty.isEmpty)
    #expect(empty.first == nil)
    #expect(empty.last == nil)
    #expect(empty.key(before: "a") == nil)
    #expect(empty.key(after: "a") == nil)
    #expect(empty.rank(of: "a") == 0)
    #expect(empty.removing("a") == empty)
    let one = empty.setting(.string("x"), for: "a")
    #expect(one.removing("b").root === one.root)
    #expect(one.removing("a").isEmpty)
    #expect(one.setting(.object(JSONObject()), for: "a").isEmpty)
  }

  @Test func copiesShareStorageAndEqualityIsStructural() {
    let base = JSONObject([("a", .int(1)), ("b", .int(2))])
    let copy = base
    #expect(copy.root === base.root)
    let changed = base.setting(.int(3), for: "b")
    #expect(base["b"] == .int(2))
    #expect(changed["b"] == .int(3))
    #expect(changed != base)
    #expect(changed.setting(.int(2), for: "b") == base)
    #expect(base.setting(.double(2), for: "b") != base)
    // Setting an identical value keeps the same storage.
    #expect(base.setting(.int(2), for: "b").root === base.root)
    let zero = base.setting(.double(0), for: "z")
    #expect(zero.setting(.double(-0.0), for: "z").jsonValueText == "{\"a\":1,\"b\":2,\"z\":-0.0}")
    let nested = JSONObject([("o", .object(base))])
    #expect(nested.setting(.object(base), for: "o").root === nested.root)
    #expect(nested.setting(.object(changed), for: "o").root !== nested.root)
  }
}

extension JSONObject {
  fileprivate var jsonValueText: String { JSONValue.object(self).jsonString }
}

/// Counts failures reported by threads.
private final class FailureCounter: @unchecked Sendable {
  /// Protects `failures`.
  private let lock = NSLock()
  private var failures = 0

  func record() {
    lock.lock()
    failures += 1
    lock.unlock()
  }

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return failures
  }

  @Test func settingReturnsTheValueItReplacedFromTheSameDescent() {
    var object = JSONObject()
    for index in 0..<100 {
      object = object.setting(.int(Int64(index)), for: WebcomKey("k\(index)"))
    }
    let replacing = object.settingReturningReplaced(.string("new"), for: "k42")
    #expect(replacing.replaced == .int(42))
    #expect(replacing.result["k42"] == .string("new"))
    #expect(replacing.result.count == 100 && replacing.result.isValid)
    let inserting = object.settingReturningReplaced(.bool(true), for: "k100")
    #expect(inserting.replaced == nil)
    #expect(inserting.result.count == 101 && inserting.result.isValid)
    let removing = object.settingReturningReplaced(.null, for: "k7")
    #expect(removing.replaced == .int(7))
    #expect(removing.result["k7"] == nil && removing.result.count == 99)
    // An identical value keeps the storage; removing an absent key too.
    let same = object.settingReturningReplaced(.int(5), for: "k5")
    #expect(same.replaced == .int(5) && same.result.isIdentical(to: object))
    let absent = object.settingReturningReplaced(.null, for: "absent")
    #expect(absent.replaced == nil && absent.result.isIdentical(to: object))
  }
}
