import Foundation
import Testing

@testable import Datasync

/// Disconnection operations run by the back end when a client's connection drops.
@Suite struct PresenceTests {
  let queue = DispatchQueue(label: "test.presence")

  @Test func presenceIsClearedWhenTheClientsConnectionDrops() throws {
    let database = DatasyncDatabase()
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    let states = StateRecorder()
    alice.manager.observeState(queue: queue, onChange: states.record)
    let presence = try alice.node("presence/a")
    try waitForResult { presence.set(true, queue: $0, then: $1) }
    try waitForResult { presence.clear(at: .nextDisconnection, queue: $0, then: $1) }
    let recorder = EventRecorder()
    try bob.node("presence").subscribe(
      to: .child(addition: true, removal: true), queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))

    alice.connection.dropConnection(reconnecting: false)
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded.map(describe) == ["+a", "-a"])
    #expect(database.value(at: try DatasyncPath(parsing: "presence")) == .null)
    #expect(states.wait(connected: false))
    #expect(alice.service.state == .disconnected && alice.service.isConnectionEnabled)

    // The operation ran once: after the reconnection a new presence survives the next drop.
    alice.connection.restoreConnection()
    #expect(states.wait(connected: true))
    try waitForResult { presence.set(true, queue: $0, then: $1) }
    alice.connection.dropConnection()
    let node = try alice.node("presence/b")
    try waitForResult { node.set(true, queue: $0, then: $1) }
    #expect(recorder.wait(forCount: 4))
    #expect(recorder.recorded.map(describe) == ["+a", "-a", "+a", "+b"])
  }

  @Test func onDisconnectionRunsAtEveryDropUntilCancelled() throws {
    let database = DatasyncDatabase()
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    let status = try alice.node("status/alice")
    let recorder = EventRecorder()
    try bob.node("status/alice").subscribe(
      to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    try waitForResult { status.set("offline", at: .onDisconnection, queue: $0, then: $1) }
    for round in 1...3 {
      try waitForResult { status.set("online", queue: $0, then: $1) }
      alice.connection.dropConnection()
      #expect(recorder.wait(forCount: 1 + 2 * round))
    }
    #expect(
      recorder.recorded.map(\.value.asString) == [
        nil, "online", "offline", "online", "offline", "online", "offline",
      ])
    try waitForResult { status.cancelDisconnectionOperations(queue: $0, then: $1) }
    try waitForResult { status.set("online", queue: $0, then: $1) }
    alice.connection.dropConnection()
    let node = try alice.node("status/bob")
    try waitForResult { node.set("probe", queue: $0, then: $1) }
    #expect(recorder.wait(forCount: 8))
    queue.sync {}
    #expect(recorder.recorded.last?.value.asString == "online")
    #expect(database.value(at: try DatasyncPath(parsing: "status/alice")) == .string("online"))
  }
}

/// The back end's rules apply to disconnection operations when they are registered.
@Suite struct DisconnectionOperationRuleTests {
  @Test func aDisconnectionOperationAtARejectedPathFailsAndNeverRuns() throws {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(
        json: #"{"rules": {".read": true, "$top": {".write": "$top != 'locked'"}}}"#))
    let alice = TestClient("alice", database: database)
    let locked = try alice.node("locked/flag")
    #expect(throws: WebcomError.self) {
      try waitForResult { locked.set(true, at: .onDisconnection, queue: $0, then: $1) }
    }
    database.rules = .open
    alice.connection.dropConnection()
    let probe = try alice.node("probe")
    try waitForResult { probe.set(1, queue: $0, then: $1) }
    #expect(database.value(at: try DatasyncPath(parsing: "locked")) == .null)
  }
}
