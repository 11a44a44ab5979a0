import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// One event stream per listened location, shared by every listen below it.
@Suite(.timeLimit(.minutes(1))) struct RemoteStreamSharingTests {
  private let events = DispatchQueue(label: "test.remote.sharing")

  /// Subscribes to the value of a node, recording each value as JSON text.
  private func values(of client: RemoteClient, at path: String) throws -> (
    Recorder<String>, DatasyncSubscription
  ) {
    let log = Recorder<String>()
    let subscription = try client.node(path).subscribeThrows(
      to: .valueChange, queue: events, onEvent: { log.append($0.value.json) })
    return (log, subscription)
  }

  @Test func aListenUnderAListenedLocationOpensNoStreamAndGetsOneOfItsOwnWhenThatOneEnds()
    throws
  {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    try bob.wait { queue, then in try! bob.node("room/a").set(1, queue: queue, then: then) }
    let (room, roomSubscription) = try values(of: alice, at: "room")
    #expect(room.wait(for: 1) == [#"{"a":1}"#])
    let (child, _) = try values(of: alice, at: "room/a")
    #expect(child.wait(for: 1) == ["1"])
    // Alice's own write goes after the listen through the same connection: once answered, a
    // stream for the child would have been asked for.
    try alice.wait { queue, then in try! alice.node("room/b").set(2, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("room/a").set(3, queue: queue, then: then) }
    #expect(child.wait { $0.last == "3" } == ["1", "3"])
    #expect(server.server.openStreamCount == 1)

    roomSubscription.cancel()
    try bob.wait { queue, then in try! bob.node("room/a").set(4, queue: queue, then: then) }
    #expect(child.wait { $0.last == "4" } == ["1", "3", "4"])
    // The child's own stream brought "4"; the server may notice the end of the room's stream
    // only later (it counts a stream until then): wait for it, then the child's stream is the
    // only one.
    #expect(server.server.waitForOpenStreams(atMost: 1))
    #expect(server.server.openStreamCount == 1)
  }

  @Test func aListenAboveListenedLocationsTakesOverTheirStreams() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    let (first, _) = try values(of: alice, at: "room/a")
    let (second, _) = try values(of: alice, at: "room/b")
    #expect(first.wait(for: 1) == ["null"])
    #expect(second.wait(for: 1) == ["null"])
    let (room, _) = try values(of: alice, at: "room")
    #expect(room.wait(for: 1) == ["null"])
    #expect(server.server.waitForOpenStreams(atMost: 1, timeout: .seconds(3)))

    try bob.wait { queue, then in try! bob.node("room/a").set(1, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("room/b").set(2, queue: queue, then: then) }
    #expect(room.wait { $0.last == #"{"a":1,"b":2}"# }.count == 3)
    #expect(first.wait { $0.last == "1" } == ["null", "1"])
    #expect(second.wait { $0.last == "2" } == ["null", "2"])
    #expect(server.server.openStreamCount == 1)
  }

  @Test func aRefusedListenEndsTheListensBelowItAndTheirStreams() throws {
    let server = try TestDatabaseServer(
      rules: try DatasyncRules(
        json: #"{"rules": {"room": {"a": {".read": true}}, ".write": true}}"#))
    let alice = RemoteClient("alice", server: server)
    let revocations = Recorder<String>()
    for path in ["room/a", "room"] {
      try alice.node(path).subscribeThrows(
        to: .valueChange, queue: events, onEvent: { _ in },
        onCompletion: { completion in
          if case .revoked = completion { revocations.append(path) }
        })
      if path == "room/a" { #expect(server.server.waitForOpenStreams(atLeast: 1)) }
    }
    #expect(revocations.wait(for: 2).sorted() == ["room", "room/a"])
    #expect(server.server.waitForOpenStreams(atMost: 0, timeout: .seconds(3)))
  }

  @Test func afterAReconnectionTheSharedStreamServesEveryListenOnce() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    let children = Recorder<String>()
    try alice.node("room").subscribeThrows(
      to: .child(addition: true, change: true, removal: true), queue: events,
      onEvent: { children.append(describeRemote($0)) })
    let (child, _) = try values(of: alice, at: "room/a")
    #expect(child.wait(for: 1) == ["null"])
    try bob.wait { queue, then in try! bob.node("room/a").set(1, queue: queue, then: then) }
    #expect(child.wait { $0.last == "1" } == ["null", "1"])
    #expect(children.wait(for: 1) == ["+a 1"])

    server.server.closeStreams()
    #expect(alice.states.wait(connected: false))
    #expect(alice.states.wait(timeout: 10) { $0.count { $0 != .disconnected } >= 2 }.count >= 3)
    try bob.wait { queue, then in try! bob.node("room/a").set(2, queue: queue, then: then) }
    #expect(child.wait { $0.last == "2" } == ["null", "1", "2"])
    #expect(children.wait { $0.last == "~a 2" } == ["+a 1", "~a 2"])
    #expect(server.server.openStreamCount == 1)
  }
}
