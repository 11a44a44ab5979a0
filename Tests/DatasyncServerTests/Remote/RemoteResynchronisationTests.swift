import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// Two remote clients of one server: convergence, streams cut and restored, offline writes,
/// refused writes.
@Suite(.timeLimit(.minutes(1))) struct RemoteResynchronisationTests {
  private let events = DispatchQueue(label: "test.remote.events")

  /// The children of `/room` rebuilt from child events, as JSON text by key.
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

  @Test(arguments: [5, 23] as [UInt64])
  func randomWritesOfTwoClientsConverge(seed: UInt64) throws {
    let server = try TestDatabaseServer()
    let clients = [RemoteClient("alice", server: server), RemoteClient("bob", server: server)]
    let childLogs = clients.map { _ in Recorder<DatasyncEvent>() }
    for (client, log) in zip(clients, childLogs) {
      try client.node("room").subscribe(
        to: .child(addition: true, change: true, removal: true), queue: events,
        onEvent: log.append)
    }
    var random = SeededRandom(seed: seed)
    let answers = Recorder<Bool>()
    for _ in 0..<60 {
      let client = clients[Int.random(in: 0..<2, using: &random)]
      let key = ["a", "b", "c", "d"].randomElement(using: &random)!
      let node = try client.node("room/\(key)")
      let number = Int.random(in: 0..<100, using: &random)
      let record: @Sendable (WebcomResult<Void>) -> Void = {
        answers.append((try? $0.get()) != nil)
      }
      switch Int.random(in: 0..<4, using: &random) {
      case 0: node.set(number, queue: events, then: record)
      case 1: node.merge(with: ["x": number, "y": number + 1], queue: events, then: record)
      case 2: try client.node("room").push(number, queue: events, then: record)
      default: node.clear(queue: events, then: record)
      }
    }
    #expect(answers.wait(for: 60).allSatisfy { $0 })
    let stored = try server.server.database().value(at: DatasyncPath(parsing: "/room"))
    let expected = Self.children(of: stored)
    for log in childLogs {
      let converged = log.wait { Self.children(from: $0) == expected }
      #expect(Self.children(from: converged) == expected)
    }
  }

  @Test func streamsCutByTheServerResynchroniseWithoutDuplicatesOrLostRemovals() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient(
      "alice", server: server,
      options: RemoteOptions(
        requestTimeout: 5, idleTimeout: 5,
        reconnection: RemoteReconnectionPolicy(initialDelay: 0.2, maximumDelay: 0.2, jitter: 0)))
    let bob = RemoteClient("bob", server: server)
    let log = Recorder<String>()
    try alice.node("list").subscribe(
      to: .child(addition: true, change: true, removal: true), queue: events,
      onEvent: { log.append(describeRemote($0)) })
    for key in ["a", "b", "c"] {
      try bob.wait { queue, then in try! bob.node("list/\(key)").set(1, queue: queue, then: then) }
    }
    #expect(log.wait(for: 3).count == 3)

    server.server.closeStreams()
    #expect(alice.states.wait(connected: false))
    // While Alice is away (or just back): a removal, a change, an addition.
    try bob.wait { queue, then in try! bob.node("list/a").clear(queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("list/b").set(2, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("list/d").set(1, queue: queue, then: then) }
    #expect(alice.states.wait(timeout: 10) { $0.count { $0 != .disconnected } >= 2 }.count >= 3)
    let seen = log.wait { $0.contains("+d 1") && $0.contains("-a") && $0.contains("~b 2") }
    // Each change once (in the order of the diff when it came with the fresh data).
    #expect(seen.prefix(3) == ["+a 1", "+b 1", "+c 1"])
    #expect(seen.dropFirst(3).sorted() == ["+d 1", "-a", "~b 2"])
    // The resynchronised view follows later changes as before.
    try bob.wait { queue, then in try! bob.node("list/c").clear(queue: queue, then: then) }
    #expect(log.wait { $0.last == "-c" }.suffix(1) == ["-c"])
  }

  @Test func writesMadeOfflineReachTheServerInOrder() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    #expect(alice.states.wait(connected: true))
    let values = Recorder<String>()
    try bob.node("counter").subscribe(
      to: .valueChange, queue: events, onEvent: { values.append($0.value.json) })
    values.wait(for: 1)
    alice.application.datasyncService.isConnectionEnabled = false
    #expect(alice.states.wait(connected: false))
    let answers = Recorder<Bool>()
    for value in 1...20 {
      try alice.node("counter").set(value, queue: events) { answers.append((try? $0.get()) != nil) }
    }
    alice.application.datasyncService.isConnectionEnabled = true
    #expect(answers.wait(for: 20).allSatisfy { $0 })
    let seen = values.wait { $0.last == "20" }.compactMap(Int.init)
    #expect(seen.last == 20)
    #expect(seen == seen.sorted(), "Bob saw \(seen)")
  }

  @Test func aRefusedWriteIsRevertedWithTheServersReason() throws {
    let server = try TestDatabaseServer(
      rules: try DatasyncRules(json: #"{"rules": {".read": true, "open": {".write": true}}}"#))
    let alice = RemoteClient("alice", server: server)
    let log = Recorder<String>()
    try alice.node("locked").subscribe(
      to: .valueChange, queue: events, onEvent: { log.append($0.value.json) })
    log.wait(for: 1)
    let error = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in try! alice.node("locked").set(5, queue: queue, then: then) }
    }
    #expect(error?.code == .permissionDenied)
    #expect(error?.message.contains("HTTP 403") == true, "\(error?.message ?? "")")
    #expect(log.wait { $0.count >= 3 } == ["null", "5", "null"])
    try alice.wait { queue, then in try! alice.node("open/x").set(1, queue: queue, then: then) }
  }
}

/// A server stopped and started again on the same port and data.
@Suite(.timeLimit(.minutes(1))) struct RemoteServerRestartTests {
  @Test func clientsResynchroniseWithARestartedServer() throws {
    let first = try TestDatabaseServer(files: true)
    let directory = try #require(first.directory)
    let port = first.port
    let alice = RemoteClient("alice", server: first)
    let bob = RemoteClient("bob", server: first)
    let queue = DispatchQueue(label: "test.restart")
    let logs = [Recorder<String>(), Recorder<String>()]
    for (client, log) in zip([alice, bob], logs) {
      try client.node("list").subscribe(
        to: .child(addition: true, change: true, removal: true), queue: queue,
        onEvent: { log.append(describeRemote($0)) })
    }
    try alice.wait { queue, then in try! alice.node("list/a").set(1, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("list/b").set(1, queue: queue, then: then) }
    for log in logs { #expect(log.wait(for: 2).sorted() == ["+a 1", "+b 1"]) }

    first.server.stop()
    #expect(alice.states.wait(connected: false))
    #expect(bob.states.wait(connected: false))
    // Written while the server is down: sent once it is back.
    let answered = Recorder<Bool>()
    try alice.node("list/c").set(1, queue: queue) { answered.append((try? $0.get()) != nil) }
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: port)
    configuration.rules = .open
    configuration.dataPath = directory.appendingPathComponent("data.sqlite").path
    let second = try DatabaseServer(configuration: configuration)
    defer { second.stop() }

    #expect(answered.wait(for: 1) == [true])
    try bob.wait { queue, then in try! bob.node("list/a").clear(queue: queue, then: then) }
    for log in logs {
      let seen = log.wait { $0.contains("-a") && $0.contains("+c 1") }
      #expect(seen.count == 4, "\(seen)")
      #expect(Set(seen) == ["+a 1", "+b 1", "+c 1", "-a"])
    }
    #expect(
      try second.database().value(at: DatasyncPath(parsing: "/list"))
        == .object(JSONObject([("b", .int(1)), ("c", .int(1))])))
  }
}
