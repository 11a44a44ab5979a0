import Foundation
import Testing

@testable import Datasync

/// Writes made offline: local at once, sent in order on reconnection.
@Suite struct OfflineTests {
  let queue = DispatchQueue(label: "test.offline")

  @Test func offlineMessagesReachOthersInOrderOnReconnection() throws {
    let database = DatasyncDatabase()
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    // Random delays on both connections must not reorder anything.
    alice.connection.setLatency(.init(minimum: 0, maximum: 0.002, seed: 5))
    bob.connection.setLatency(.init(minimum: 0, maximum: 0.002, seed: 6))
    let aliceMessages = try alice.node("messages")
    let aliceEvents = EventRecorder()
    let aliceLoaded = EventRecorder()
    aliceMessages.subscribe(
      to: .child(addition: true, acknowledgement: true), queue: queue,
      onEvent: aliceEvents.record)
    aliceMessages.subscribe(to: .valueChange, queue: queue, onEvent: aliceLoaded.record)
    let bobEvents = EventRecorder()
    let bobLoaded = EventRecorder()
    let bobMessages = try bob.node("messages")
    bobMessages.subscribe(to: .childAddition, queue: queue, onEvent: bobEvents.record)
    bobMessages.subscribe(to: .valueChange, queue: queue, onEvent: bobLoaded.record)
    #expect(aliceLoaded.wait(forCount: 1) && bobLoaded.wait(forCount: 1))

    alice.service.isConnectionEnabled = false
    let callbacks = CallbackCounter()
    var keys: [String] = []
    for index in 0..<100 {
      let child = try #require(aliceMessages.push(index, queue: queue, then: callbacks.record))
      keys.append(child.key.value)
    }
    #expect(aliceEvents.wait(forCount: 100))
    let local = aliceEvents.take()
    #expect(local.allSatisfy { $0.eventType == .childAddition && !$0.acked })
    #expect(local.map(\.key.value) == keys)
    #expect(local.map(\.value.asInt) == Array(0..<100))
    // Bob's own write makes a round trip while Alice is offline: nothing of hers was sent.
    let node = try bob.node("elsewhere")
    try waitForResult { node.set(1, queue: $0, then: $1) }
    #expect(database.value(at: try DatasyncPath(parsing: "messages")) == .null)
    queue.sync {}
    #expect(bobEvents.recorded.isEmpty)
    #expect(callbacks.succeeded == 0 && callbacks.failed.isEmpty)

    alice.service.isConnectionEnabled = true
    #expect(bobEvents.wait(forCount: 100))
    #expect(bobEvents.recorded.map(\.key.value) == keys)
    #expect(bobEvents.recorded.map(\.value.asInt) == Array(0..<100))
    #expect(callbacks.wait(for: 100))
    #expect(callbacks.succeeded == 100)
    #expect(aliceEvents.wait(forCount: 100))
    queue.sync {}
    let acknowledgements = aliceEvents.take()
    #expect(acknowledgements.count == 100)
    #expect(acknowledgements.allSatisfy { $0.eventType == .childAcknowledgement && $0.acked })
    #expect(acknowledgements.map(\.key.value) == keys)
    #expect(aliceLoaded.recorded.last?.value.asDictionary()?.count == 100)
  }

  @Test func anIncrementIssuedOfflineIsAppliedAtomicallyOnReconnection() throws {
    let database = DatasyncDatabase()
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    let aliceCounter = try alice.node("counter")
    let bobCounter = try bob.node("counter")
    try waitForResult { aliceCounter.set(10, queue: $0, then: $1) }
    alice.service.isConnectionEnabled = false
    let callbacks = CallbackCounter()
    for _ in 0..<5 { aliceCounter.increment(by: 2, queue: queue, then: callbacks.record) }
    for _ in 0..<3 { try waitForResult { bobCounter.increment(queue: $0, then: $1) } }
    #expect(database.value(at: try DatasyncPath(parsing: "counter")) == .int(13))
    alice.service.isConnectionEnabled = true
    #expect(callbacks.wait(for: 5))
    #expect(callbacks.succeeded == 5)
    #expect(database.value(at: try DatasyncPath(parsing: "counter")) == .int(23))
  }
}
