import Foundation
import Testing

@testable import Datasync

/// The order of the events of one write across the subscriptions of one client: every child event
/// of every view (deeper views first) comes before any value event, and value events come deeper
/// first.
@Suite struct EventOrderTests {
  let queue = DispatchQueue(label: "test.event-order")
  let manager = makeApplication().datasyncService.createManager()

  /// Records "label:event" summaries from several subscriptions sharing one queue.
  private final class LabelledRecorder: @unchecked Sendable {
    /// Protects `entries`.
    private let condition = NSCondition()
    private var entries: [String] = []

    func recorder(_ label: String) -> (DatasyncEvent) -> Void {
      { [self] event in
        condition.withLock {
          entries.append("\(label):\(Self.summary(of: event))")
          condition.broadcast()
        }
      }
    }

    /// `describe(event)`, with acknowledgements written "ack+key" and "ack=value".
    private static func summary(of event: DatasyncEvent) -> String {
      switch event.eventType {
      case .childAcknowledgement: "ack+\(event.key.value)"
      case .valueAcknowledgement: "ack=\(event.value.json)"
      default: describe(event)
      }
    }

    @discardableResult
    func take(_ count: Int, timeout: TimeInterval = 10) -> [String] {
      let deadline = Date(timeIntervalSinceNow: timeout)
      condition.lock()
      defer { condition.unlock() }
      while entries.count < count {
        if !condition.wait(until: deadline) { break }
      }
      defer { entries = [] }
      return entries
    }
  }

  private func node(_ path: String) throws -> DatasyncNode { try manager.nodeThrows(for: path) }

  private func subscribe(
    _ path: String, _ type: DatasyncEventType, _ constraint: DatasyncChildrenConstraint = .all,
    label: String, into recorder: LabelledRecorder
  ) throws {
    _ = try #require(
      try node(path).subscribe(
        to: type, childrenConstraint: constraint, queue: queue,
        onEvent: recorder.recorder(label)))
  }

  private func write(_ path: String, _ value: some Encodable) throws {
    let node = try node(path)
    try waitForResult { node.set(value, queue: $0, then: $1) }
  }

  private static let childEvents = DatasyncEventType.child(
    addition: true, change: true, removal: true)

  /// The number of child events after the first value event.
  private func childEventsAfterTheFirstValueEvent(_ entries: [String]) -> Int {
    guard let first = entries.firstIndex(where: { $0.contains(":=") }) else { return 0 }
    return entries[first...].filter { !$0.contains(":=") }.count
  }

  @Test func anOlderValueViewDoesNotOvertakeTheChildEventsOfAWindow() throws {
    try write("list", ["a": "a", "b": "b", "c": "c"])
    let recorder = LabelledRecorder()
    try subscribe("list", .valueChange, label: "all", into: recorder)
    try subscribe("list", Self.childEvents, .last(limit: 2), label: "last2", into: recorder)
    try subscribe("list", .valueChange, .last(limit: 2), label: "last2", into: recorder)
    recorder.take(4)

    try write("list/d", "d")
    #expect(
      recorder.take(4) == [
        "last2:-b", "last2:+d", #"all:={"a":"a","b":"b","c":"c","d":"d"}"#,
        #"last2:={"c":"c","d":"d"}"#,
      ])
    try write("list/d", "D")
    #expect(
      recorder.take(3) == [
        "last2:~d", #"all:={"a":"a","b":"b","c":"c","d":"D"}"#, #"last2:={"c":"c","d":"D"}"#,
      ])
  }

  @Test func everyChildEventComesBeforeAnyValueEventDeeperViewsFirst() throws {
    try write("tree/list", ["a": 1, "b": 2, "c": 3])
    try write("tree/other", 0)
    let recorder = LabelledRecorder()
    // Subscriptions made in an order that differs from the depth order.
    try subscribe("/", .valueChange, label: "root", into: recorder)
    try subscribe("tree", .valueChange, label: "tree", into: recorder)
    try subscribe("tree", Self.childEvents, label: "tree", into: recorder)
    try subscribe("tree/list", .valueChange, label: "list", into: recorder)
    try subscribe("tree/list", Self.childEvents, .first(limit: 2), label: "first2", into: recorder)
    try subscribe("tree/list", Self.childEvents, label: "list", into: recorder)
    try subscribe("tree/list/b", .valueChange, label: "b", into: recorder)
    #expect(recorder.take(11).count == 11)

    try write("tree/list", ["0": 0, "b": 20, "c": 3])
    let entries = recorder.take(11)
    #expect(childEventsAfterTheFirstValueEvent(entries) == 0)
    #expect(
      entries == [
        "list:-a", "list:+0", "list:~b", "first2:-a", "first2:+0", "first2:~b", "tree:~list",
        "b:=20", #"list:={"0":0,"b":20,"c":3}"#,
        #"tree:={"list":{"0":0,"b":20,"c":3},"other":0}"#,
        #"root:={"tree":{"list":{"0":0,"b":20,"c":3},"other":0}}"#,
      ])
  }

  @Test func childAcknowledgementsComeBeforeValueAcknowledgements() throws {
    let recorder = LabelledRecorder()
    try subscribe("acks", .value(acknowledgement: true), label: "all", into: recorder)
    try subscribe(
      "acks", .child(acknowledgement: true), .last(limit: 2), label: "last2", into: recorder)
    try write("acks/a", 1)
    #expect(recorder.take(2) == ["last2:ack+a", #"all:ack={"a":1}"#])
  }

  /// Subscribes, in this order, to the value of `list` and to its last two children (child
  /// events and value), and consumes the replays.
  private func watchList(
    _ list: DatasyncNode, _ recorder: LabelledRecorder
  ) throws {
    _ = try #require(
      list.subscribe(to: .valueChange, queue: queue, onEvent: recorder.recorder("all")))
    _ = try #require(
      list.subscribe(
        to: Self.childEvents, childrenConstraint: .last(limit: 2), queue: queue,
        onEvent: recorder.recorder("last2")))
    _ = try #require(
      list.subscribe(
        to: .valueChange, childrenConstraint: .last(limit: 2), queue: queue,
        onEvent: recorder.recorder("last2")))
    #expect(recorder.take(4).count == 4)
  }

  @Test func aRevertedWriteKeepsTheOrder() throws {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(
        json: #"{"rules": {".read": true, ".write": true, "list": {"z": {".validate": false}}}}"#))
    let manager = makeApplication(database: database).datasyncService.createManager()
    let list = try manager.nodeThrows(for: "list")
    try waitForResult { list.set(["a": 1, "b": 2, "c": 3], queue: $0, then: $1) }
    let recorder = LabelledRecorder()
    try watchList(list, recorder)
    #expect(throws: WebcomError.self) {
      try waitForResult { list.relativeNode(for: "z")!.set(26, queue: $0, then: $1) }
    }
    #expect(
      recorder.take(8) == [
        "last2:-b", "last2:+z", #"all:={"a":1,"b":2,"c":3,"z":26}"#, #"last2:={"c":3,"z":26}"#,
        "last2:-z", "last2:+b", #"all:={"a":1,"b":2,"c":3}"#, #"last2:={"b":2,"c":3}"#,
      ])
  }

  @Test func aResynchronisationKeepsTheOrder() throws {
    let database = DatasyncDatabase()
    let alice = makeApplication("alice", database: database).datasyncService
    let bob = try makeApplication("bob", database: database).datasyncService.createManager()
      .nodeThrows(for: "list")
    try waitForResult { bob.set(["a": 1, "b": 2, "c": 3], queue: $0, then: $1) }
    let list = try alice.createManager().nodeThrows(for: "list")
    let recorder = LabelledRecorder()
    try watchList(list, recorder)
    alice.isConnectionEnabled = false
    try waitForResult { bob.relativeNode(for: "d")!.set(4, queue: $0, then: $1) }
    alice.isConnectionEnabled = true
    #expect(
      recorder.take(4) == [
        "last2:-b", "last2:+d", #"all:={"a":1,"b":2,"c":3,"d":4}"#, #"last2:={"c":3,"d":4}"#,
      ])
  }
}
