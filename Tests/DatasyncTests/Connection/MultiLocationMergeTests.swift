import Foundation
import Testing

@testable import Datasync

/// Multi-location merges from several threads and clients: every client listening at or below
/// the merged locations ends up with the back end's data.
@Suite struct MultiLocationMergeTests {
  let queue = DispatchQueue(label: "test.multi-location-merge")

  /// A random merge (or now and then a set) under /room.
  private static func randomWrite(
    on client: TestClient, using random: inout SeededRandom, then: CallbackCounter
  ) throws {
    let paths = ["a/x", "a/y/z", "a/y/w", "b/x", "b/y", "c", "d/e/f"]
    var members: [String: Int?] = [:]
    for path in paths where Int.random(in: 0..<3, using: &random) == 0 {
      members[path] = Bool.random(using: &random) ? Int.random(in: 0..<100, using: &random) : nil
    }
    if Int.random(in: 0..<6, using: &random) == 0 {
      let child = ["a", "b", "c"].randomElement(using: &random)!
      try client.node("room/\(child)").set(
        ["x": Int.random(in: 0..<100, using: &random)], queue: DispatchQueue.global(),
        then: then.record)
    } else {
      try client.node("room").merge(with: members, queue: DispatchQueue.global(), then: then.record)
    }
  }

  @Test(arguments: [5, 23] as [UInt64])
  func clientsListeningAtAndBelowTheMergedLocationsConverge(seed: UInt64) throws {
    let database = DatasyncDatabase()
    let listened = [["room"], ["room/a", "room/b/x"], ["room/c", "room/a/y", "room/d/e"]]
    let clients = listened.indices.map { TestClient("client\($0)", database: database) }
    var recorders: [(client: TestClient, path: String, recorder: EventRecorder)] = []
    for (client, paths) in zip(clients, listened) {
      for path in paths {
        let recorder = EventRecorder()
        try client.node(path).subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
        recorders.append((client, path, recorder))
      }
    }
    for entry in recorders { #expect(entry.recorder.wait(forCount: 1)) }
    for (index, client) in clients.enumerated() {
      client.connection.setLatency(
        .init(minimum: 0, maximum: 0.002, seed: seed &* 31 &+ UInt64(index)))
    }

    let callbacks = CallbackCounter()
    let threads = 4
    let writesPerThread = 40
    let failures = Shared(0)
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
      var random = SeededRandom(seed: seed &* 7 &+ UInt64(thread))
      for _ in 0..<writesPerThread {
        let client = clients[Int.random(in: 0..<clients.count, using: &random)]
        do {
          try Self.randomWrite(on: client, using: &random, then: callbacks)
        } catch {
          failures.update { $0 += 1 }
        }
      }
    }
    #expect(failures.current == 0)
    #expect(callbacks.wait(for: threads * writesPerThread))
    #expect(callbacks.failed.isEmpty, "\(callbacks.failed)")

    // A write of each client, acknowledged: the back end's changes before it reached the client
    // first (a connection keeps the order of its messages), and their events are on the queue.
    for (index, client) in clients.enumerated() {
      let barrier = try client.node("barrier/\(index)")
      try waitForResult { barrier.set(true, queue: $0, then: $1) }
    }
    queue.sync {}
    for (client, path, recorder) in recorders {
      let expected = DatasyncValue(database.value(at: try DatasyncPath(parsing: path))).json
      #expect(recorder.recorded.last?.value.json == expected, "\(path)")
      #expect(try client.node(path).cachedValue.json == expected, "\(path)")
    }
  }
}
