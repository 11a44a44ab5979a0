import Datasync
import DatasyncStreams
import Foundation
import Streams

/// Presence with disconnection operations: a client's flag is cleared by the back end when the
/// client goes away.
enum PresenceWalkthrough: Walkthrough {
  static let name = "presence"
  static let summary = "Who is online, with writes the back end runs at disconnection"

  static func run(output: WalkthroughOutput) async throws {
    let database = DatasyncDatabase()
    func application(_ name: String) -> WebcomApplication {
      WebcomApplication(
        configuration: WebcomConfiguration(identifier: name, backEnd: .embedded(database)))
    }
    let alice = application("alice")
    let bob = application("bob")
    let alicePresence = try alice.datasyncService.createManager().nodeThrows(for: "presence/alice")
    let online = try bob.datasyncService.createManager().nodeThrows(for: "presence")

    var events = online.streams.events(to: .child(addition: true, removal: true)).values
      .makeAsyncIterator()
    try await alicePresence.set(true)
    try await alicePresence.clear(at: .nextDisconnection)
    output("alice registered: clear presence/alice at her next disconnection")
    if let event = try await events.next() {
      output("bob sees: \(event.key) is online")
    }

    alice.datasyncService.isConnectionEnabled = false
    output("alice disconnects")
    if let event = try await events.next() {
      output("bob sees: \(event.key) went \(event.eventType == .childRemoval ? "offline" : "?")")
    }

    alice.datasyncService.isConnectionEnabled = true
    try await alicePresence.set(true)
    output("alice reconnects and sets her flag again")
    if let event = try await events.next() {
      output("bob sees: \(event.key) is online")
    }
  }
}
