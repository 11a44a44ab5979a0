import Datasync
import DatasyncStreams
import Foundation
import Streams

/// A chat room under security rules: two users on one database, each authenticated with a token,
/// each writing only their own messages, both reading the whole room.
enum SecureChatWalkthrough: Walkthrough {
  static let name = "secure-chat"
  static let summary = "Security rules: two users who each write only their own messages"

  /// The signed-in read the room; each writes only under `messages/<own uid>`, and only
  /// messages with a text.
  static let rules = """
    {
      "rules": {
        "rooms": {
          "$room": {
            ".read": "auth != null",
            "messages": {
              "$uid": {
                ".write": "auth != null && auth.uid == $uid",
                "$message": { ".validate": "newData.hasChildren(['text']) && newData.child('text').isString()" }
              }
            }
          }
        }
      }
    }
    """

  static func run(output: WalkthroughOutput) async throws {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(json: rules),
      tokens: [
        "alice-token": DatasyncAuthentication(uid: "alice"),
        "bob-token": DatasyncAuthentication(uid: "bob"),
      ])
    func application(_ name: String) -> WebcomApplication {
      WebcomApplication(
        configuration: WebcomConfiguration(identifier: name, backEnd: .embedded(database)))
    }
    let alice = application("alice")
    let bob = application("bob")
    for (user, token) in [(alice, "alice-token"), (bob, "bob-token")] {
      let identity = try await user.authenticationService.authenticate(withToken: token)
      output("\(user.configuration.identifier) signed in as \(identity.uid)")
    }
    let alicesRoom = try alice.datasyncService.createManager().nodeThrows(for: "rooms/general")
    let bobsRoom = try bob.datasyncService.createManager().nodeThrows(for: "rooms/general")

    var seenByBob = try bobsRoom.relativeNodeThrows(for: "messages/alice").streams
      .events(to: .child(addition: true, removal: true)).values.makeAsyncIterator()
    try await alicesRoom.relativeNodeThrows(for: "messages/alice/m1").set(["text": "Hi Bob"])
    try await bobsRoom.relativeNodeThrows(for: "messages/bob/m1").set(["text": "Hi Alice"])
    output("alice and bob each wrote a message under their own uid")
    if let event = try await seenByBob.next() {
      output("bob sees alice's messages: +\(event.key)")
    }

    do {
      try await bobsRoom.relativeNodeThrows(for: "messages/alice/forged").set(["text": "I'm Alice"])
      output("bob wrote as alice (the rules let him!)")
    } catch let error as WebcomError {
      output("bob writing as alice: \(error.code)")
    }
    for _ in 0..<2 {
      if let event = try await seenByBob.next() {
        let sign = event.eventType == .childRemoval ? "-" : "+"
        output("  bob's own view: \(sign)\(event.key)")
      }
    }

    do {
      try await alicesRoom.relativeNodeThrows(for: "messages/alice/m2").set(["image": "cat.png"])
      output("alice wrote a message without a text (the rules let her!)")
    } catch let error as WebcomError {
      output("alice writing a message without a text: \(error.code)")
    }

    for (user, room) in [(alice, alicesRoom), (bob, bobsRoom)] {
      let messages = try await room.relativeNodeThrows(for: "messages").value()
      let texts = ["alice", "bob"].compactMap { uid in
        messages.asDictionary()?[uid]?.asDictionary()?["m1"]?.asDictionary()?["text"]?.asString
      }
      output("\(user.configuration.identifier) reads the room: \(texts.joined(separator: " / "))")
    }

    let visitor = application("visitor")
    do {
      _ = try await visitor.datasyncService.createManager().nodeThrows(for: "rooms/general")
        .value()
      output("a visitor who is not signed in read the room (the rules let them!)")
    } catch let error as WebcomError {
      output("a visitor who is not signed in reading the room: \(error.code)")
    }
  }
}
