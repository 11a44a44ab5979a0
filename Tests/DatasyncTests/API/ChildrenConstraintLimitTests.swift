import Foundation
import Testing

@testable import Datasync

/// Limits of children constraints at the API: a limit is an upper bound (`Int.max` means every
/// child of the window), a limit below 1 is refused with `invalidArgument` at subscription.
@Suite struct ChildrenConstraintLimitTests {
  let queue = DispatchQueue(label: "test.constraint-limits")
  let manager = makeApplication().datasyncService.createManager()

  private func seededNode(_ path: String) throws -> DatasyncNode {
    let node = try manager.nodeThrows(for: path)
    try waitForResult { node.set(["a": 1, "b": 2, "c": 3], queue: $0, then: $1) }
    return node
  }

  @Test(arguments: [
    (DatasyncChildrenConstraint.startAt(key: "b", limit: .max), ["b", "c"]),
    (.startAt(key: "", limit: .max), ["a", "b", "c"]),
    (.endAt(key: "b", limit: .max), ["a", "b"]),
    (.first(limit: .max), ["a", "b", "c"]),
    (.last(limit: .max), ["a", "b", "c"]),
  ])
  func theLargestLimitMeansEveryChildOfTheWindow(
    _ constraint: DatasyncChildrenConstraint, _ keys: [String]
  ) throws {
    let node = try seededNode("max")
    let recorder = EventRecorder()
    _ = try #require(
      node.subscribe(
        to: .child(addition: true, removal: true), childrenConstraint: constraint, queue: queue,
        onEvent: recorder.record))
    let values = EventRecorder()
    _ = try #require(
      node.subscribe(
        to: .valueChange, childrenConstraint: constraint, queue: queue, onEvent: values.record))
    #expect(values.wait(forCount: 1))
    #expect(recorder.take().map(\.key.value) == keys)
    // Local events are queued when the write is made.
    try waitForResult { node.relativeNode(for: "d")!.set(4, queue: $0, then: $1) }
    queue.sync {}
    let expectedAfterD = constraint == .endAt(key: "b", limit: .max) ? [] : ["+d"]
    #expect(recorder.take().map(describe) == expectedAfterD)
  }

  @Test(arguments: [
    DatasyncChildrenConstraint.first(limit: 0), .last(limit: -1), .startAt(key: "a", limit: 0),
    .endAt(key: "a", limit: .min),
  ])
  func aLimitBelowOneIsRefusedAtSubscription(_ constraint: DatasyncChildrenConstraint) throws {
    let node = try seededNode("refused")
    let recorder = EventRecorder()
    let thrown = #expect(throws: WebcomError.self) {
      try node.subscribeThrows(
        to: .childAddition, childrenConstraint: constraint, queue: queue,
        onEvent: recorder.record, onCompletion: recorder.complete)
    }
    #expect(thrown?.code == .invalidArgument)
    #expect(thrown?.message.contains("\(constraint.limit ?? 1)") == true)
    let subscription = node.subscribe(
      to: .childAddition, childrenConstraint: constraint, queue: queue, onEvent: recorder.record,
      onCompletion: recorder.complete)
    #expect(subscription == nil)
    let decoded = node.decodedValueSubscribe(
      to: .childAddition, childrenConstraint: constraint, queue: queue,
      onValue: { (_: Int) in }, onCompletion: recorder.complete)
    #expect(decoded == nil)
    try waitForResult { node.relativeNode(for: "z")!.set(26, queue: $0, then: $1) }
    queue.sync {}
    #expect(recorder.recorded.isEmpty && recorder.recordedCompletions.isEmpty)
  }

  @Test func askingForNoEventIsRefusedAtSubscription() throws {
    let node = try manager.nodeThrows(for: "nothing")
    let thrown = #expect(throws: WebcomError.self) {
      try node.subscribeThrows(to: .value(), queue: queue, onEvent: { _ in })
    }
    #expect(thrown?.code == .invalidArgument)
    #expect(node.subscribe(to: .child(), queue: queue, onEvent: { _ in }) == nil)
  }
}
