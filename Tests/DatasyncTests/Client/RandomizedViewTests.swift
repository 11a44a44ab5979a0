import Foundation
import Testing

@testable import Datasync

/// Random writes against every kind of window: a list rebuilt from the events alone (additions
/// inserted after their previous key, removals, changes) always equals the window of the data,
/// whether the client has these views only or many more (then a write finds the views it
/// touched through the index of their paths instead of looking at each).
@Suite struct RandomizedViewTests {
  /// A window rebuilt from child events; accessed only on the test's queue.
  private final class Mirror: @unchecked Sendable {
    var entries: [(key: String, value: String)] = []
    var problems: [String] = []

    func apply(_ event: DatasyncEvent) {
      let key = event.key.value
      let index = entries.firstIndex { $0.key == key }
      switch event.eventType {
      case .childAddition:
        if index != nil { problems.append("duplicate addition of \(key)") }
        let position =
          event.previousChildKey.map { previous in
            (entries.firstIndex { $0.key == previous }).map { $0 + 1 } ?? -1
          } ?? 0
        if position < 0 { problems.append("unknown previous key for \(key)") }
        entries.insert((key, event.value.json), at: max(position, 0))
      case .childRemoval:
        guard let index else {
          problems.append("removal of absent \(key)")
          return
        }
        entries.remove(at: index)
      case .childChange:
        guard let index else {
          problems.append("change of absent \(key)")
          return
        }
        if event.previousChildKey != (index > 0 ? entries[index - 1].key : nil) {
          problems.append("wrong previous key for the change of \(key)")
        }
        entries[index].value = event.value.json
      default:
        problems.append("unexpected \(event.eventType)")
      }
    }
  }

  /// The last value event of each node watched, by path; accessed only on the test's queue.
  private final class LastValues: @unchecked Sendable {
    var json: [String: String] = [:]
  }

  @Test(arguments: [(1, false), (2, false), (3, false), (1, true), (2, true)])
  func windowsFollowRandomWrites(seed: UInt64, watchesEveryChild: Bool) throws {
    var random = SeededRandom(seed: seed)
    let database = DatasyncDatabase()
    let queue = DispatchQueue(label: "test.randomized")
    let manager = makeApplication(database: database).datasyncService.createManager()
    let list = try manager.nodeThrows(for: "list")
    let constraints: [DatasyncChildrenConstraint] = [
      .all, .first(limit: 3), .last(limit: 4), .startAt(key: "k3"), .startAt(key: "k2", limit: 2),
      .endAt(key: "k6"), .endAt(key: "k5", limit: 3),
    ]
    let mirrors = constraints.map { _ in Mirror() }
    let loaded = EventRecorder()
    for (constraint, mirror) in zip(constraints, mirrors) {
      list.subscribe(
        to: .child(addition: true, change: true, removal: true), childrenConstraint: constraint,
        queue: queue, onEvent: mirror.apply)
      list.subscribe(
        to: .valueChange, childrenConstraint: constraint, queue: queue, onEvent: loaded.record)
    }
    // Ten more views, one on each child (below the list's views): the client has more views than
    // it looks at one by one.
    let lastValues = LastValues()
    let childKeys = (0..<10).map { "k\($0)" }
    for key in childKeys where watchesEveryChild {
      try list.relativeNodeThrows(for: key).subscribe(
        to: .valueChange, queue: queue,
        onEvent: { event in
          lastValues.json[key] = event.value.json
          loaded.record(event)
        })
    }
    #expect(loaded.wait(forCount: constraints.count + (watchesEveryChild ? childKeys.count : 0)))
    let other = try makeApplication(database: database).datasyncService.createManager()
      .nodeThrows(for: "list")
    for step in 0..<300 {
      let writer = Bool.random(using: &random) ? list : other
      let key = "k\(Int.random(in: 0..<10, using: &random))"
      let child = try writer.relativeNodeThrows(for: key)
      let writeQueue = DispatchQueue(label: "test.write")
      switch Int.random(in: 0..<6, using: &random) {
      case 0: child.clear(queue: writeQueue)
      case 1: child.set(["v": step], queue: writeQueue)
      case 2:
        var values: [String: Int?] = [:]
        for _ in 0..<3 {
          values["k\(Int.random(in: 0..<10, using: &random))"] =
            Bool.random(using: &random) ? step : nil
        }
        writer.merge(with: values, queue: writeQueue)
      case 3: writer.set(["k1": step, "k4": step, "k8": step], queue: writeQueue)
      case 4: try writer.relativeNodeThrows(for: "\(key)/deep").set(step, queue: writeQueue)
      default: child.set(step % 3, queue: writeQueue)
      }
    }
    for node in [other, list] {
      let unwatched = try node.relativeNodeThrows(for: "../flush")
      try waitForResult { unwatched.value(queue: $0, then: $1) }
    }
    queue.sync {}
    let value = database.value(at: try DatasyncPath(parsing: "list"))
    let children = value.children ?? JSONObject()
    #expect(list.cachedValue.json == value.jsonString)
    for key in childKeys where watchesEveryChild {
      let expected = children[WebcomKey(key)]?.jsonString ?? "null"
      #expect(queue.sync { lastValues.json[key] } == expected, "\(key)")
    }
    for (constraint, mirror) in zip(constraints, mirrors) {
      let expected = children.elements(in: constraint.window(in: children)).map {
        "\($0.key.value)=\($0.value.jsonString)"
      }
      let mirrored = queue.sync { mirror.entries.map { "\($0.key)=\($0.value)" } }
      #expect(mirrored == expected, "\(constraint)")
      #expect(queue.sync { mirror.problems }.isEmpty, "\(constraint)")
    }
  }
}
