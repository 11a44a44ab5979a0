import Foundation
import Testing

@testable import Datasync

@Suite struct SubscriptionEventsTests {
  let queue = DispatchQueue(label: "test.subscription-events")
  let manager = makeApplication().datasyncService.createManager()

  private func node(_ path: String) throws -> DatasyncNode { try manager.nodeThrows(for: path) }

  private func subscribe(
    _ node: DatasyncNode, to type: DatasyncEventType, _ recorder: EventRecorder,
    constraint: DatasyncChildrenConstraint = .all
  ) throws -> DatasyncSubscription {
    try #require(
      node.subscribe(
        to: type, childrenConstraint: constraint, queue: queue, onEvent: recorder.record,
        onCompletion: recorder.complete))
  }

  private func write(_ node: DatasyncNode, _ value: some Encodable) throws {
    try waitForResult { node.set(value, queue: $0, then: $1) }
  }

  @Test func childReplayComesBeforeTheValueEventOfTheSameNode() throws {
    let room = try node("room")
    try write(room, ["b": 2, "a": 1, "c": 3])
    let recorder = EventRecorder()
    _ = try subscribe(room, to: .childAddition, recorder)
    _ = try subscribe(room, to: .valueChange, recorder)
    #expect(recorder.wait(forCount: 4))
    #expect(recorder.recorded.map(describe) == ["+a", "+b", "+c", #"={"a":1,"b":2,"c":3}"#])
    #expect(recorder.recorded.map(\.previousChildKey) == [nil, "a", "b", nil])
  }

  @Test func aValueSubscriptionOfAnEmptyNodeReplaysNull() throws {
    let recorder = EventRecorder()
    _ = try subscribe(try node("nothing/here"), to: .valueChange, recorder)
    #expect(recorder.wait(forCount: 1))
    #expect(recorder.recorded.first?.value.isNull == true)
  }

  @Test func oneWriteGivesRemovalsThenAdditionsThenChangesThenValue() throws {
    let list = try node("list")
    try write(list, ["a": 1, "b": 2, "c": 3])
    let recorder = EventRecorder()
    _ = try subscribe(list, to: .child(addition: true, change: true, removal: true), recorder)
    _ = try subscribe(list, to: .valueChange, recorder)
    #expect(recorder.wait(forCount: 4))
    recorder.take()
    try write(list, ["b": 20, "c": 3, "d": 4, "0": 0])
    #expect(recorder.wait(forCount: 5))
    let events = recorder.take()
    #expect(events.map(describe) == ["-a", "+0", "+d", "~b", #"={"0":0,"b":20,"c":3,"d":4}"#])
    #expect(events.map(\.previousChildKey) == [nil, nil, "c", "0", nil])
    #expect(events.map(\.value.json) == ["1", "0", "4", "20", #"{"0":0,"b":20,"c":3,"d":4}"#])
  }

  @Test func writingTheSameValueAgainRaisesNoEvent() throws {
    let item = try node("item")
    try write(item, ["x": 1])
    let recorder = EventRecorder()
    _ = try subscribe(item, to: .valueChange, recorder)
    _ = try subscribe(item, to: .child(addition: true, change: true, removal: true), recorder)
    #expect(recorder.wait(forCount: 2))
    try write(item, ["x": 1])
    try waitForResult { item.merge(with: ["x": 1], queue: $0, then: $1) }
    try write(try node("item/x"), 1)
    try write(try node("item/y"), 2)
    #expect(recorder.wait(forCount: 4))
    #expect(recorder.recorded.map(describe) == [#"={"x":1}"#, "+x", "+y", #"={"x":1,"y":2}"#])
  }

  @Test func childEventsComeFirstThenValueEventsOfDeeperSubscriptions() throws {
    let recorder = EventRecorder()
    _ = try subscribe(try node("a"), to: .valueChange, recorder)
    _ = try subscribe(try node("a/b"), to: .valueChange, recorder)
    _ = try subscribe(try node("a"), to: .childAddition, recorder)
    #expect(recorder.wait(forCount: 2))
    recorder.take()
    try write(try node("a/b/c"), "deep")
    #expect(recorder.wait(forCount: 3))
    // Every child event of the write first, then the value events, deeper nodes first.
    #expect(
      recorder.take().map(describe) == ["+b", #"={"c":"deep"}"#, #"={"b":{"c":"deep"}}"#])
  }

  @Test func childChangesOfDeepWritesNameTheDirectChild() throws {
    let root = try node("tree")
    try write(root, ["k": ["v": 1]])
    let recorder = EventRecorder()
    _ = try subscribe(root, to: .childChange, recorder)
    _ = try subscribe(root, to: .valueChange, recorder)
    #expect(recorder.wait(forCount: 1))
    recorder.take()
    try write(try node("tree/k/v"), 2)
    #expect(recorder.wait(forCount: 2))
    let event = try #require(recorder.recorded.first)
    #expect(event.key == "k" && event.value.json == #"{"v":2}"#)
    #expect(event.node?.path == "/tree/k")
  }

  @Test func cancelStopsEventsAlreadyQueuedAndCompletesOnce() throws {
    let list = try node("cancel")
    let recorder = EventRecorder()
    let subscription = try subscribe(list, to: .childAddition, recorder)
    try write(list, ["a": 1])
    #expect(recorder.wait(forCount: 1))
    queue.suspend()
    list.push(2, queue: DispatchQueue(label: "test.push"))
    list.push(3, queue: DispatchQueue(label: "test.push"))
    subscription.cancel()
    subscription.cancel()
    queue.resume()
    #expect(recorder.waitForCompletions(1))
    try write(try node("cancel/z"), 9)
    queue.sync {}
    #expect(recorder.recorded.count == 1)
    #expect(recorder.recordedCompletions == [.cancelled(explicitly: true)])
    #expect(!subscription.isActive)
  }

  @Test func cancellingInsideTheCallbackStopsTheReplay() throws {
    let list = try node("inside")
    try write(list, ["a": 1, "b": 2, "c": 3])
    let recorder = EventRecorder()
    let box = SubscriptionBox()
    box.subscription = list.subscribe(
      to: .childAddition, queue: queue,
      onEvent: { event in
        recorder.record(event)
        event.subscription.cancel()
      }, onCompletion: recorder.complete)
    #expect(recorder.waitForCompletions(1))
    queue.sync {}
    #expect(recorder.recorded.map(describe) == ["+a"])
  }

  @Test func lastLimitWindowFollowsPushes() throws {
    let list = try node("window")
    let recorder = EventRecorder()
    _ = try subscribe(
      list, to: .child(addition: true, removal: true), recorder, constraint: .last(limit: 10))
    let loaded = EventRecorder()
    _ = try subscribe(list, to: .valueChange, loaded, constraint: .last(limit: 10))
    #expect(loaded.wait(forCount: 1))
    var keys: [String] = []
    for index in 0..<100 {
      keys.append(
        try #require(list.push(index, queue: DispatchQueue(label: "test.push"))).key.value)
    }
    #expect(recorder.wait(forCount: 100 + 90))
    let events = recorder.recorded
    var window: [String] = []
    for event in events {
      if event.eventType == .childAddition {
        #expect(event.previousChildKey == window.last)
        window.append(event.key.value)
      } else {
        #expect(event.key.value == window.first)
        window.removeFirst()
      }
      #expect(window.count <= 10)
    }
    #expect(window == Array(keys.suffix(10)))
    #expect(
      events.filter { $0.eventType == .childRemoval }.map(\.key.value) == Array(keys.prefix(90)))
  }

  @Test func firstStartAtAndEndAtWindows() throws {
    let list = try node("windows")
    try write(list, ["b": 2, "d": 4, "f": 6])
    let first = EventRecorder()
    let startAt = EventRecorder()
    let endAt = EventRecorder()
    let value = EventRecorder()
    let types = DatasyncEventType.child(addition: true, change: true, removal: true)
    _ = try subscribe(list, to: types, first, constraint: .first(limit: 2))
    _ = try subscribe(list, to: types, startAt, constraint: .startAt(key: "c", limit: 2))
    _ = try subscribe(list, to: types, endAt, constraint: .endAt(key: "d"))
    _ = try subscribe(list, to: .valueChange, value, constraint: .first(limit: 2))
    #expect(first.wait(forCount: 2) && startAt.wait(forCount: 2) && endAt.wait(forCount: 2))
    #expect(first.take().map(describe) == ["+b", "+d"])
    #expect(startAt.take().map(describe) == ["+d", "+f"])
    #expect(endAt.take().map(describe) == ["+b", "+d"])
    #expect(value.wait(forCount: 1))
    #expect(value.take().map(describe) == [#"={"b":2,"d":4}"#])

    try write(try node("windows/a"), 1)
    try write(try node("windows/e"), 5)
    try write(try node("windows/d"), 40)
    #expect(first.wait(forCount: 2) && startAt.wait(forCount: 3) && endAt.wait(forCount: 2))
    #expect(first.take().map(describe) == ["-d", "+a"])
    #expect(startAt.take().map(describe) == ["-f", "+e", "~d"])
    #expect(endAt.take().map(describe) == ["+a", "~d"])
    #expect(value.wait(forCount: 1))
    #expect(value.take().map(describe) == [#"={"a":1,"b":2}"#])
  }

  @Test func replacingTheWholeNodeDiffsTheWindow() throws {
    let list = try node("replace")
    try write(list, ["a": 1, "b": 2, "c": 3])
    let window = EventRecorder()
    let all = EventRecorder()
    let types = DatasyncEventType.child(addition: true, change: true, removal: true)
    _ = try subscribe(list, to: types, window, constraint: .last(limit: 2))
    _ = try subscribe(list, to: types, all)
    #expect(window.wait(forCount: 2) && all.wait(forCount: 3))
    window.take()
    all.take()
    try write(list, ["b": 2, "c": 30, "d": 4])
    #expect(window.wait(forCount: 3) && all.wait(forCount: 3))
    #expect(window.take().map(describe) == ["-b", "+d", "~c"])
    #expect(all.take().map(describe) == ["-a", "+d", "~c"])
    try write(try node("replace/c"), "leaf")
    try write(list, "not an object any more")
    #expect(window.wait(forCount: 3) && all.wait(forCount: 4))
    #expect(window.take().map(describe) == ["~c", "-c", "-d"])
    #expect(all.take().map(describe) == ["~c", "-b", "-c", "-d"])
  }

  @Test func localEventsComeFirstThenAcknowledgements() throws {
    let list = try node("acks")
    let recorder = EventRecorder()
    _ = try subscribe(list, to: .child(addition: true, acknowledgement: true), recorder)
    _ = try subscribe(list, to: .value(change: true, acknowledgement: true), recorder)
    #expect(recorder.wait(forCount: 1))
    recorder.take()
    let child = try #require(list.push("hello", queue: queue))
    #expect(recorder.wait(forCount: 4))
    let events = recorder.take()
    let key = child.key.value
    #expect(
      events.map(\.eventType) == [
        .childAddition, .valueChange, .childAcknowledgement, .valueAcknowledgement,
      ])
    #expect(events.map(\.acked) == [false, false, true, true])
    #expect(events.map(\.key.value) == [key, "acks", key, "acks"])
    #expect(events[2].value.asString == "hello")
  }

  @Test func applicationsSharingADatabaseSeeEachOthersWrites() throws {
    let database = DatasyncDatabase()
    let alice = makeApplication("alice", database: database).datasyncService.createManager()
    let bob = makeApplication("bob", database: database).datasyncService.createManager()
    let recorder = EventRecorder()
    _ = try #require(
      try bob.nodeThrows(for: "chat").subscribe(
        to: .childAddition, queue: queue, onEvent: recorder.record))
    let chat = try alice.nodeThrows(for: "chat")
    for index in 0..<5 { try waitForResult { chat.push(index, queue: $0, then: $1) } }
    #expect(recorder.wait(forCount: 5))
    #expect(recorder.recorded.map { $0.value.asInt } == [0, 1, 2, 3, 4])
    let bobChat = try bob.nodeThrows(for: "chat")
    #expect(try waitForResult { bobChat.value(queue: $0, then: $1) }.asDictionary()?.count == 5)
  }
}

/// Lets a callback reach the subscription that calls it.
final class SubscriptionBox: @unchecked Sendable {
  var subscription: DatasyncSubscription?
}
