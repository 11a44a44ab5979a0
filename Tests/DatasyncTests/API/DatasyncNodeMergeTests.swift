import Foundation
import Testing

@testable import Datasync

/// `merge` writes each member exactly as `set` would, at a child or at a path below the node,
/// atomically; bad members write nothing.
@Suite struct DatasyncNodeMergeTests {
  let queue = DispatchQueue(label: "test.merge")
  let database = DatasyncDatabase()
  let manager: DatasyncManager
  let node: DatasyncNode

  init() throws {
    manager = makeApplication(database: database).datasyncService.createManager()
    node = try manager.nodeThrows(for: "room")
    // Subscribed, so that the cache keeps the node's data: the tests compare it with the stored
    // data after each acknowledged merge.
    node.subscribe(to: .valueChange, queue: queue) { _ in }
  }

  private func reset(_ json: String) throws {
    let value = try JSONValue.fromJSONData(Data(json.utf8))
    try waitForResult { [node] in node.set(ModelValue(value: value), queue: $0, then: $1) }
  }

  private func stored(_ path: String = "room") throws -> String {
    DatasyncValue(database.value(at: try DatasyncPath(parsing: path))).json
  }

  private func expectFailure(
    _ code: WebcomError.Code, naming culprits: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation,
    _ start: (DispatchQueue, @escaping (WebcomResult<Void>) -> Void) -> Void
  ) {
    do {
      try waitForResult(start)
      Issue.record("expected \(code)", sourceLocation: sourceLocation)
    } catch let error as WebcomError {
      #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
      for culprit in culprits {
        #expect(error.message.contains(culprit), "\(error)", sourceLocation: sourceLocation)
      }
    } catch {
      Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
    }
  }

  // MARK: Members written as set writes them

  @Test func membersThatNormaliseToNullDeleteTheirChild() throws {
    let initial = #"{"a":["x","y"],"b":{"k":"v"},"c":1}"#
    try reset(initial)
    try waitForResult { node.merge(with: ["a": [] as [String]], queue: $0, then: $1) }
    #expect(try stored() == #"{"b":{"k":"v"},"c":1}"#)
    #expect(node.cachedValue.json == #"{"b":{"k":"v"},"c":1}"#)
    try waitForResult { node.merge(with: ["b": [String: String]()], queue: $0, then: $1) }
    #expect(try stored() == #"{"c":1}"#)
    try reset(initial)
    try waitForResult {
      node.merge(with: ["b": ["k": nil]] as [String: [String: String?]], queue: $0, then: $1)
    }
    #expect(try stored() == #"{"a":["x","y"],"c":1}"#)
    #expect(node.cachedValue.json == #"{"a":["x","y"],"c":1}"#)
  }

  @Test func aMergedMemberEndsAsASetOfItWouldEnd() throws {
    let values: [[String: Int?]?] = [nil, [:], ["k": nil], ["k": 1], ["k": 1, "l": nil]]
    for value in values {
      try reset(#"{"a":{"k":0,"m":2},"b":1}"#)
      try waitForResult { node.merge(with: ["a": value], queue: $0, then: $1) }
      let merged = try stored()
      try reset(#"{"a":{"k":0,"m":2},"b":1}"#)
      try waitForResult { node.relativeNode(for: "a")!.set(value, queue: $0, then: $1) }
      #expect(merged == (try stored()), "\(String(describing: value))")
    }
  }

  @Test func aMergeIntoALeafWritesAsSetsBelowItWould() throws {
    try reset(#"{"a":"text"}"#)
    // Deleting below a leaf changes nothing; writing below it replaces it by an object.
    try waitForResult {
      node.relativeNode(for: "a")!.merge(with: ["x": Int?.none], queue: $0, then: $1)
    }
    #expect(try stored() == #"{"a":"text"}"#)
    try waitForResult { node.relativeNode(for: "a")!.merge(with: ["x": 1], queue: $0, then: $1) }
    #expect(try stored() == #"{"a":{"x":1}}"#)
  }

  @Test func arraysMergeTheirElementsByIndex() throws {
    try reset(#"{"0":"x","1":"y","5":"z"}"#)
    try waitForResult { node.merge(with: [1, nil, 3] as [Int?], queue: $0, then: $1) }
    #expect(try stored() == #"{"0":1,"2":3,"5":"z"}"#)
  }

  @Test func serverValuesInsideAMergeResolveAsInASet() throws {
    struct Stamp: Encodable {
      var at = WebcomDate.backEndCurrentDate
      var by = "ada"
    }
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    database.setClock { now }
    let milliseconds = Int64(now.timeIntervalSince1970 * 1000)
    try waitForResult { node.merge(with: Stamp(), queue: $0, then: $1) }
    #expect(database.value(at: try DatasyncPath(parsing: "room/at")) == .int(milliseconds))
    try waitForResult {
      node.merge(with: ["log/first": WebcomDate.backEndCurrentDate], queue: $0, then: $1)
    }
    #expect(database.value(at: try DatasyncPath(parsing: "room/log/first")) == .int(milliseconds))
    #expect(node.cachedValue.asDictionary()?["log"]?.json == #"{"first":\#(milliseconds)}"#)
  }

  @Test func noMergedKeyBypassesKeyValidation() throws {
    try reset(#"{"a":1}"#)
    // The server-value object is a value, not members: its key is not a child key.
    expectFailure(.invalidKey, naming: [".sv"]) {
      node.merge(with: WebcomDate.backEndCurrentDate, queue: $0, then: $1)
    }
    expectFailure(.invalidKey, naming: [".sv"]) {
      node.merge(with: [".sv": "timestamp"], queue: $0, then: $1)
    }
    expectFailure(.invalidKey, naming: ["a$b"]) {
      node.merge(with: ["a$b": 1], queue: $0, then: $1)
    }
    expectFailure(.invalidKey, naming: ["x/a]b"]) {
      node.merge(with: ["x/a]b": 1], queue: $0, then: $1)
    }
    expectFailure(.invalidKey, naming: ["c/d.e"]) {
      node.merge(with: ["ok": ["c": ["d.e": 1]]], queue: $0, then: $1)
    }
    #expect(try stored() == #"{"a":1}"#)
  }

  // MARK: Multi-location merges

  @Test func keysThatArePathsWriteEveryLocationAtomically() throws {
    try reset(#"{"a":{"b":0,"keep":1},"c":0,"x":{"y":1}}"#)
    try waitForResult {
      node.merge(
        with: ["a/b": 1, "c": 2, "d/e/f": 3, "x/y": nil] as [String: Int?], queue: $0, then: $1)
    }
    let expected = #"{"a":{"b":1,"keep":1},"c":2,"d":{"e":{"f":3}}}"#
    #expect(try stored() == expected)
    #expect(node.cachedValue.json == expected)
    // Another client sees the same data.
    let other = makeApplication("other", database: database).datasyncService.createManager()
    let otherRoom = try other.nodeThrows(for: "room")
    let read = try waitForResult { otherRoom.value(queue: $0, then: $1) }
    #expect(read.json == expected)
  }

  @Test func aMultiLocationMergeRaisesOneBatchOfEvents() throws {
    try reset(#"{"a":{"b":0,"keep":1},"c":0}"#)
    let roomValues = SummaryRecorder()
    let roomChildren = SummaryRecorder()
    let aChildren = SummaryRecorder()
    let aValues = SummaryRecorder()
    let bValues = SummaryRecorder()
    let dValues = SummaryRecorder()
    node.subscribe(to: .valueChange, queue: queue, onEvent: roomValues.record)
    node.subscribe(
      to: .child(addition: true, change: true, removal: true), queue: queue,
      onEvent: roomChildren.record)
    let a = try #require(node.relativeNode(for: "a"))
    a.subscribe(
      to: .child(addition: true, change: true, removal: true), queue: queue,
      onEvent: aChildren.record)
    a.subscribe(to: .valueChange, queue: queue, onEvent: aValues.record)
    node.relativeNode(for: "a/b")!.subscribe(
      to: .valueChange, queue: queue, onEvent: bValues.record)
    node.relativeNode(for: "d/e")!.subscribe(
      to: .valueChange, queue: queue, onEvent: dValues.record)
    #expect(roomValues.wait(events: 1) && aValues.wait(events: 1) && bValues.wait(events: 1))
    #expect(dValues.wait(events: 1))
    queue.sync {}
    let recorders = [roomValues, roomChildren, aChildren, aValues, bValues, dValues]
    let before = recorders.map(\.recorded.count)

    try waitForResult {
      node.merge(with: ["a/b": 1, "c": 2, "d/e/f": 3], queue: $0, then: $1)
    }
    queue.sync {}
    let events = zip(recorders, before).map { Array($0.recorded.dropFirst($1)) }
    #expect(events[0] == [#"={"a":{"b":1,"keep":1},"c":2,"d":{"e":{"f":3}}}"#])
    #expect(events[1] == ["+d", "~a", "~c"])
    #expect(events[2] == ["~b"])
    #expect(events[3] == [#"={"b":1,"keep":1}"#])
    #expect(events[4] == ["=1"])
    #expect(events[5] == [#"={"f":3}"#])
  }

  @Test func overlappingKeysAreRejectedNamingBoth() throws {
    try reset(#"{"a":{"b":1}}"#)
    expectFailure(.invalidArgument, naming: [#""a""#, #""a/b""#]) {
      node.merge(with: ["a": 1, "a/b": 2], queue: $0, then: $1)
    }
    expectFailure(.invalidArgument, naming: [#""x/y""#, #""x/y/z/w""#]) {
      node.merge(with: ["x/y/z/w": 1, "q": 1, "x/y": 2, "x/yz": 3], queue: $0, then: $1)
    }
    #expect(try stored() == #"{"a":{"b":1}}"#)
  }

  @Test(arguments: ["a//b", "/a", "a/", "a/./b", "a/../b", ".", "..", "a/b.c", "", "a/ /\u{7}"])
  func keysWithInvalidSegmentsAreRejected(key: String) throws {
    try reset(#"{"a":{"b":1}}"#)
    expectFailure(.invalidKey, naming: [WebcomKey.quoted(key)]) {
      node.merge(with: [key: 2], queue: $0, then: $1)
    }
    #expect(try stored() == #"{"a":{"b":1}}"#)
  }

  @Test func aValueThatIsNotAnObjectIsRejected() throws {
    try reset(#"{"a":1}"#)
    expectFailure(.invalidArgument, naming: ["a string"]) {
      node.merge(with: "text", queue: $0, then: $1)
    }
    expectFailure(.invalidArgument, naming: ["null"]) {
      node.merge(with: Int?.none, queue: $0, then: $1)
    }
    #expect(try stored() == #"{"a":1}"#)
  }

  /// Whether a merge aborts a transaction running at `game/score`.
  @Test(arguments: [
    ("game", ["round": 2, "players/alice": 1], false),
    ("game", ["score": 100], true),
    ("/", ["game/score/bonus": 1], true),
    ("/", ["game": 1, "other": 2], true),
    ("/", ["game/scores": 1, "game/round": 2], false),
    ("game/score", ["bonus": 1], true),
  ])
  func aMergeAbortsOnlyTheTransactionsAtAboveOrBelowItsLocations(
    at path: String, members: [String: Int], aborts: Bool
  ) throws {
    let bob = TestClient("bob", database: database)
    let bobScore = try bob.node("game/score")
    try waitForResult { bobScore.set(5, queue: $0, then: $1) }
    let alice = TestClient("alice", database: database)
    let score = try alice.node("game/score")
    // Offline, the merge is certainly made while the transaction waits for its first answer.
    alice.service.isConnectionEnabled = false
    let done = CallbackCounter()
    let outcome = Shared<WebcomResult<DatasyncTransaction.Result>?>(nil)
    let increment: DatasyncTransaction.Function = { .set(($0.asInt ?? 0) + 1) }
    score.transaction(increment, queue: queue) { result in
      outcome.update { $0 = result }
      done.record(result)
    }
    try alice.node(path).merge(with: members, queue: queue)
    alice.service.isConnectionEnabled = true
    #expect(done.wait(for: 1))
    let result = try #require(try outcome.current?.get())
    #expect(result.committed == !aborts, "\(path) \(members)")
  }
}

/// A value of the model, encoded as it is (for fixtures written as JSON).
struct ModelValue: Encodable {
  let value: JSONValue

  func encode(to encoder: any Encoder) throws {
    switch value {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let bool):
      var container = encoder.singleValueContainer()
      try container.encode(bool)
    case .int(let int):
      var container = encoder.singleValueContainer()
      try container.encode(int)
    case .double(let double):
      var container = encoder.singleValueContainer()
      try container.encode(double)
    case .string(let string):
      var container = encoder.singleValueContainer()
      try container.encode(string)
    case .object(let object):
      var container = encoder.container(keyedBy: ValueEncoderNameKey.self)
      for (key, child) in object {
        try container.encode(
          ModelValue(value: child), forKey: ValueEncoderNameKey(stringValue: key.value))
      }
    }
  }
}
