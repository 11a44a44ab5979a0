import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// The remote back end against a `datasync serve` server on 127.0.0.1: connection, listens,
/// writes, reads.
@Suite(.timeLimit(.minutes(1))) struct RemoteBackEndTests {
  @Test func connectsAndDeliversAnotherClientsWrites() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    #expect(alice.states.wait(connected: true))
    let events = RemoteLog<String>()
    try alice.node("room").subscribe(
      to: .child(addition: true, change: true, removal: true),
      queue: DispatchQueue(label: "test.events"), onEvent: { events.append(describeRemote($0)) })
    try bob.wait { queue, then in try! bob.node("room/a").set(1, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("room/a").set(2, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("room/a").clear(queue: queue, then: then) }
    let seen = events.wait { $0.contains("-a") }
    #expect(seen == ["+a 1", "~a 2", "-a"])
  }
}
