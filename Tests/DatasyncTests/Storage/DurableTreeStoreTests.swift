import Foundation
import Testing

@testable import Datasync

@Suite struct DurableTreeStoreTests {
  /// A value with every kind of leaf and awkward keys.
  static let everyKind = """
    {
      "strings": {"empty": "", "plain": "hello", "unicode": "\u{E9}t\u{E9} \u{65E5}\u{672C} \u{1F600}",
                  "nul": "a\\u0000b", "quotes": "\\"'\\\\/", "newline": "line\\nline"},
      "integers": {"zero": 0, "one": 1, "minus": -1, "max": 9223372036854775807,
                   "min": -9223372036854775808, "byte": 255, "twoBytes": 256},
      "doubles": {"half": 0.5, "negative": -1.5e-300, "huge": 1.7976931348623157e308,
                  "tiny": 5e-324, "third": 0.3333333333333333},
      "booleans": {"yes": true, "no": false},
      "keys": {"0": "zero", "00": "zero padded", "-0": "minus zero", "007": 7, "7": "seven",
               "-5": "minus five", "9223372036854775808": "beyond Int64", "1a": "text",
               "\u{E9}": "accented", "\u{1F600}": "emoji", "with space": "space", "-": "dash"},
      "array": [1, "two", 3.5, false, {"nested": [[]]}],
      "deep": {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": "bottom"}}}}}}}}
    }
    """

  @Test func everyKindOfValueRoundTripsAndSurvivesReopening() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("kinds.sqlite")
    var tree = try jsonValue(Self.everyKind)
    let longKey = WebcomKey(String(repeating: "k", count: 700))
    tree = tree.setting(.string(String(repeating: "\u{E9}", count: 100_000)), at: ["long"])
    tree = tree.setting(.int(42), at: ["keys", longKey])
    tree = tree.setting(.double(-0.0), at: ["doubles", "negativeZero"])
    let store = try DurableTreeStore(path: file)
    try store.commit([(.root, tree)])
    #expect(try store.load() == tree)
    store.close()

    let reopened = try DurableTreeStore(path: file)
    let loaded = try reopened.load()
    #expect(loaded == tree)
    #expect(loaded.children?.isValid == true)
    #expect(loaded.value(at: ["strings", "nul"]) == .string("a\u{0}b"))
    #expect(loaded.value(at: ["keys", "007"]) == .int(7))
    #expect(loaded.value(at: ["keys", longKey]) == .int(42))
    guard case .double(let zero) = loaded.value(at: ["doubles", "negativeZero"]) else {
      Issue.record("-0.0 did not come back as a floating number")
      return
    }
    #expect(zero.sign == .minus)
    guard case .object(let keys) = loaded["keys"] else {
      Issue.record("the keys object is missing")
      return
    }
    #expect(keys.keys.map(\.value) == keys.keys.sorted().map(\.value))
    #expect(keys.keys.first?.value == "-5")
  }

  @Test func aScalarAtTheRootRoundTripsAndGivesWayToAnObject() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("root.sqlite")
    let store = try DurableTreeStore(path: file)
    #expect(try store.load() == .null)
    try store.commit([(.root, .string("only"))])
    #expect(try store.load() == .string("only"))
    try store.commit([(try datasyncPath("/a/b"), .int(1))])
    #expect(try store.load() == jsonValue(#"{"a": {"b": 1}}"#))
    try store.commit([(.root, .bool(false))])
    store.close()
    #expect(try DurableTreeStore(path: file).load() == .bool(false))
  }

  @Test func aSetReplacesTheWholeSubtree() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("subtree.sqlite")
    let store = try DurableTreeStore(path: file)
    try store.commit([
      (.root, try jsonValue(#"{"a": {"x": {"y": 1, "z": 2}, "w": 3}, "a0": 4, "ab": 5, "b": 6}"#))
    ])
    try store.commit([(try datasyncPath("/a"), try jsonValue(#"{"x": "scalar now"}"#))])
    #expect(
      try store.load() == jsonValue(#"{"a": {"x": "scalar now"}, "a0": 4, "ab": 5, "b": 6}"#))
    try store.commit([(try datasyncPath("/a/x/deeper/still"), .int(7))])
    let expected = try jsonValue(
      #"{"a": {"x": {"deeper": {"still": 7}}}, "a0": 4, "ab": 5, "b": 6}"#)
    #expect(try store.load() == expected)
    store.close()
    #expect(try DurableTreeStore(path: file).load() == expected)
  }

  @Test func deletesRemoveEmptiedParentsAndKeepSiblings() throws {
    let directory = try TemporaryDirectory()
    let store = try DurableTreeStore(path: directory.path("deletes.sqlite"))
    try store.commit([(.root, try jsonValue(#"{"a": {"b": {"c": 1}}, "s": {"t": 2, "u": 3}}"#))])
    try store.commit([(try datasyncPath("/a/b/c"), .null)])
    #expect(try store.load() == jsonValue(#"{"s": {"t": 2, "u": 3}}"#))
    try store.commit([(try datasyncPath("/s/t"), .null)])
    #expect(try store.load() == jsonValue(#"{"s": {"u": 3}}"#))
    try store.commit([(try datasyncPath("/s/u/below/a/leaf"), .null)])
    #expect(try store.load() == jsonValue(#"{"s": {"u": 3}}"#))
    try store.commit([(try datasyncPath("/nothing/here"), .null)])
    try store.commit([(try datasyncPath("/s"), .null)])
    #expect(try store.load() == .null)
    try store.commit([(.root, .int(1)), (.root, .null)])
    #expect(try store.load() == .null)
  }

  /// Random changes of random shapes, in commits of one to four changes: the store always holds
  /// what the value model gives for the same changes, before and after reopening.
  @Test(arguments: [1, 2, 3] as [UInt64]) func randomChangesMatchTheValueModel(seed: UInt64) throws
  {
    var random = SeededRandom(seed: seed)
    let directory = try TemporaryDirectory()
    let file = directory.path("random.sqlite")
    var store = try DurableTreeStore(path: file)
    let keys: [WebcomKey] = ["0", "1", "01", "-1", "10", "a", "b", "ab", "\u{E9}"]
    func randomPath() -> DatasyncPath {
      DatasyncPath(
        validatedKeys: (0..<Int.random(in: 0...3, using: &random)).map { _ in
          keys.randomElement(using: &random)!
        })
    }
    func randomValue(depth: Int) -> JSONValue {
      switch Int.random(in: 0..<(depth > 2 ? 6 : 8), using: &random) {
      case 0: return .null
      case 1: return .int(Int64.random(in: -1_000...1_000, using: &random))
      case 2: return .double(Double.random(in: -1...1, using: &random))
      case 3: return .bool(Bool.random(using: &random))
      case 4, 5: return .string(keys.randomElement(using: &random)!.value)
      default:
        var object = JSONObject()
        for _ in 0..<Int.random(in: 0...4, using: &random) {
          object = object.setting(
            randomValue(depth: depth + 1), for: keys.randomElement(using: &random)!)
        }
        return .object(object)
      }
    }
    var model = JSONValue.null
    for round in 0..<300 {
      let changes = (0..<Int.random(in: 1...4, using: &random)).map { _ in
        (path: randomPath(), value: randomValue(depth: 0))
      }
      try store.commit(changes)
      for change in changes { model = model.setting(change.value, at: change.path.keys) }
      if round % 25 == 0 {
        store.close()
        store = try DurableTreeStore(path: file)
      }
      #expect(try store.load() == model, "round \(round)")
    }
  }

  @Test func aCommitThatFailsMidwayAppliesNothing() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("atomic.sqlite")
    let store = try DurableTreeStore(path: file)
    let before = try jsonValue(#"{"a": 1, "b": {"c": 2}, "d": 3}"#)
    try store.commit([(.root, before)])
    let changes: [(path: DatasyncPath, value: JSONValue)] = [
      (try datasyncPath("/a"), .int(10)),
      (try datasyncPath("/b"), .null),
      (try datasyncPath("/e/f"), .string("new")),
    ]
    let injected = WebcomError(.storageFailed, "injected failure")
    store.injectFailure(beforeChange: 2, error: injected)
    #expect(throws: injected) { try store.commit(changes) }
    #expect(try store.load() == before)

    let notANumber = [
      (try datasyncPath("/a"), JSONValue.int(10)), (try datasyncPath("/x/y"), .double(.nan)),
    ]
    let error = #expect(throws: WebcomError.self) { try store.commit(notANumber) }
    #expect(error?.code == .invalidValue)
    #expect(error?.message.contains("\"/x/y\"") == true)
    #expect(try store.load() == before)

    let badKey = try jsonValue(#"{"ok": 1}"#).setting(.int(2), at: ["not/a key"])
    let keyError = #expect(throws: WebcomError.self) {
      try store.commit([(try datasyncPath("/a"), .int(10)), (try datasyncPath("/k"), badKey)])
    }
    #expect(keyError?.code == .invalidKey)
    #expect(try store.load() == before)
    store.close()

    let reopened = try DurableTreeStore(path: file)
    #expect(try reopened.load() == before)
    try reopened.commit(changes)
    #expect(try reopened.load() == jsonValue(#"{"a": 10, "d": 3, "e": {"f": "new"}}"#))
  }

  @Test func durabilityChoosesTheSynchronousLevelInWALMode() throws {
    let directory = try TemporaryDirectory()
    let crashSafe = try DurableTreeStore(path: directory.path("normal.sqlite"))
    #expect(try crashSafe.pragma("journal_mode") == "wal")
    #expect(try crashSafe.pragma("synchronous") == "1")
    let powerSafe = try DurableTreeStore(
      path: directory.path("full.sqlite"), durability: .powerLoss)
    #expect(try powerSafe.pragma("journal_mode") == "wal")
    #expect(try powerSafe.pragma("synchronous") == "2")
  }

  @Test func aClosedStoreRefusesCallsWithAClearError() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("closed.sqlite")
    let store = try DurableTreeStore(path: file)
    store.close()
    store.close()
    let error = #expect(throws: WebcomError.self) { try store.load() }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains(file) == true)
    #expect(error?.message.contains("closed") == true)
    #expect(throws: WebcomError.self) { try store.commit([(.root, .int(1))]) }
  }

  @Test func theFileIsOpenInOneStoreAtATime() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("exclusive.sqlite")
    let first = try DurableTreeStore(path: file)
    try first.commit([(.root, .int(1))])
    let error = #expect(throws: WebcomError.self) { try DurableTreeStore(path: file) }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains("open in another store") == true)
    first.close()
    #expect(try DurableTreeStore(path: file).load() == .int(1))
  }

  /// Many threads commit and load at once: every commit lands, every load sees a whole tree.
  @Test func concurrentCommitsAndLoadsAreSerialised() throws {
    let directory = try TemporaryDirectory()
    let store = try DurableTreeStore(path: directory.path("threads.sqlite"))
    let threads = 8
    let commitsPerThread = 25
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      let own = WebcomKey("t\(thread)")
      for index in 0..<commitsPerThread {
        let key = WebcomKey(String(index))
        let slot = DatasyncPath(validatedKeys: [own, key])
        let mirror = DatasyncPath(validatedKeys: ["mirror", own, key])
        do {
          try store.commit([(slot, .int(Int64(index))), (mirror, .int(Int64(index)))])
          guard index % 5 == 0 else { continue }
          let tree = try store.load()
          // Both halves of every commit are there, or neither.
          for other in 0..<threads {
            let otherKey = WebcomKey("t\(other)")
            #expect(tree[otherKey] == tree.value(at: ["mirror", otherKey]))
          }
        } catch {
          Issue.record(error)
        }
      }
    }
    let tree = try store.load()
    for thread in 0..<threads {
      for index in 0..<commitsPerThread {
        let keys = [WebcomKey("t\(thread)"), WebcomKey(String(index))]
        #expect(tree.value(at: keys) == .int(Int64(index)))
      }
    }
  }
}
