import Foundation
import Testing

@testable import Datasync

/// Three clients applying random writes through slow, unreliable connections end up agreeing
/// with the back end.
@Suite struct ConvergenceTests {
  let queue = DispatchQueue(label: "test.convergence")

  /// The children of a node rebuilt from child events, as JSON text by key.
  private static func children(from events: [DatasyncEvent]) -> [String: String] {
    var children: [String: String] = [:]
    for event in events {
      switch event.eventType {
      case .childAddition, .childChange: children[event.key.value] = event.value.json
      case .childRemoval: children[event.key.value] = nil
      default: break
      }
    }
    return children
  }

  private static func children(of value: JSONValue) -> [String: String] {
    var children: [String: String] = [:]
    for (key, child) in value.children ?? JSONObject([]) {
      children[key.value] = DatasyncValue(child).json
    }
    return children
  }

  /// One random write at a random place under /room.
  private static func randomWrite(
    on client: TestClient, using random: inout SeededRandom, then: CallbackCounter
  ) throws {
    let keys = ["a", "b", "c", "list"]
    let first = keys.randomElement(using: &random)!
    let path =
      Bool.random(using: &random)
      ? "room/\(first)" : "room/\(first)/\(["x", "y"].randomElement(using: &random)!)"
    let node = try client.node(path)
    let number = Int.random(in: 0..<100, using: &random)
    switch Int.random(in: 0..<4, using: &random) {
    case 0:
      if Bool.random(using: &random) {
        node.set(number, queue: DispatchQueue.global(), then: then.record)
      } else {
        node.set(["n": number, "m": number + 1], queue: DispatchQueue.global(), then: then.record)
      }
    case 1:
      let merged: [String: Int?] = ["x": number, "y": Bool.random(using: &random) ? nil : number]
      node.merge(with: merged, queue: DispatchQueue.global(), then: then.record)
    case 2:
      try client.node("room/list").push(number, queue: DispatchQueue.global(), then: then.record)
    default:
      node.clear(queue: DispatchQueue.global(), then: then.record)
    }
  }

  @Test(arguments: [3, 17] as [UInt64])
  func viewsOfThreeClientsEqualTheDatabaseAfterRandomWrites(seed: UInt64) throws {
    let database = DatasyncDatabase()
    let clients = (0..<3).map { TestClient("client\($0)", database: database) }
    for (index, client) in clients.enumerated() {
      client.connection.setLatency(
        .init(minimum: 0, maximum: 0.002, seed: seed &* 17 &+ UInt64(index)))
    }
    let values = clients.map { _ in EventRecorder() }
    let children = clients.map { _ in EventRecorder() }
    for (index, client) in clients.enumerated() {
      let room = try client.node("room")
      room.subscribe(
        to: .child(addition: true, change: true, removal: true), queue: queue,
        onEvent: children[index].record)
      room.subscribe(to: .valueChange, queue: queue, onEvent: values[index].record)
    }
    for recorder in values { #expect(recorder.wait(forCount: 1)) }

    var random = SeededRandom(seed: seed)
    let callbacks = CallbackCounter()
    let writes = 150
    for _ in 0..<writes {
      let client = clients.randomElement(using: &random)!
      if Int.random(in: 0..<15, using: &random) == 0 { client.connection.dropConnection() }
      try Self.randomWrite(on: client, using: &random, then: callbacks)
    }
    #expect(callbacks.wait(for: writes))
    #expect(callbacks.failed.isEmpty)

    let expected = database.value(at: try DatasyncPath(parsing: "room"))
    let expectedJSON = DatasyncValue(expected).json
    let expectedChildren = Self.children(of: expected)
    for (index, client) in clients.enumerated() {
      #expect(
        values[index].wait { $0.last?.value.json == expectedJSON },
        "client \(index): \(values[index].recorded.last?.value.json ?? "nothing") != \(expectedJSON)"
      )
      queue.sync {}
      #expect(Self.children(from: children[index].recorded) == expectedChildren)
      #expect(try client.node("room").cachedValue.json == expectedJSON)
    }
  }
}
