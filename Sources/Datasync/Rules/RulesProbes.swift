import Foundation

/// Entry points into the security rules for the package's benchmarks (`datasync-bench`), which
/// cannot see internal declarations.
package enum RulesProbes {
  /// The rules of a chat: 21 rules, most of them `.validate`, on rooms, messages, members,
  /// users and presence.
  package static let chatRules = """
    {
      "rules": {
        ".read": false,
        "rooms": {
          ".read": "auth != null",
          "$room": {
            ".write": "auth != null && root.child('members/' + $room + '/' + auth.uid).exists()",
            "name": { ".validate": "newData.isString() && newData.val().length <= 64" },
            "messages": {
              "$message": {
                ".write": "auth != null && (!data.exists() || data.child('author').val() == auth.uid)",
                ".validate": "newData.hasChildren(['author', 'text', 'sent'])",
                "author": { ".validate": "newData.val() == auth.uid" },
                "text": {
                  ".validate": "newData.isString() && newData.val().length > 0 && newData.val().length <= 500"
                },
                "sent": { ".validate": "newData.isNumber() && newData.val() <= now" },
                "edited": { ".validate": "newData.isBoolean()" },
                "$other": { ".validate": false }
              }
            }
          }
        },
        "members": {
          "$room": {
            ".read": "auth != null",
            "$uid": { ".write": "auth.uid == $uid", ".validate": "newData.isBoolean()" }
          }
        },
        "users": {
          "$uid": {
            ".read": "auth != null",
            ".write": "auth.uid == $uid",
            ".validate": "newData.hasChildren(['name'])",
            "name": {
              ".validate": "newData.isString() && newData.val().matches(/^[A-Za-z ]{1,40}$/)"
            },
            "$other": { ".validate": false }
          }
        },
        "presence": {
          "$uid": {
            ".write": "auth.uid == $uid",
            ".validate": "newData.isBoolean() || newData.isNumber()"
          }
        }
      }
    }
    """

  /// One message written into a chat database, checked under the chat's rules or open rules.
  package struct MessageWrite: Sendable {
    private let chatRules: DatasyncRules
    private let path: DatasyncPath
    private let message: JSONValue
    fileprivate let oldRoot: JSONValue
    private let newRoot: JSONValue
    private let auth: DatasyncAuthentication
    fileprivate let now: Date

    /// The number of messages in the database.
    package let messageCount: Int

    fileprivate init(rooms: Int, messagesPerRoom: Int) {
      chatRules = try! DatasyncRules(json: RulesProbes.chatRules)
      now = Date(timeIntervalSince1970: 1_700_000_000)
      auth = DatasyncAuthentication(uid: "alice")
      let sent = JSONValue.int(1_699_999_999_000)
      var tree = JSONValue.null
      for room in 0..<rooms {
        let roomKey = WebcomKey("room\(room)")
        var messages = JSONObject()
        for index in 0..<messagesPerRoom {
          let message = JSONObject()
            .setting(.string("bob"), for: "author")
            .setting(.string("message \(index)"), for: "text")
            .setting(sent, for: "sent")
          messages = messages.setting(.object(message), for: WebcomKey("m\(index)"))
        }
        tree = tree.setting(.object(messages), at: ["rooms", roomKey, "messages"])
        tree = tree.setting(.string("Room \(room)"), at: ["rooms", roomKey, "name"])
        tree = tree.setting(.bool(true), at: ["members", roomKey, "alice"])
        tree = tree.setting(.bool(true), at: ["members", roomKey, "bob"])
      }
      tree = tree.setting(.string("Alice"), at: ["users", "alice", "name"])
      let message = JSONValue.object(
        JSONObject()
          .setting(.string("alice"), for: "author")
          .setting(.string("Hello, everyone!"), for: "text")
          .setting(sent, for: "sent"))
      path = DatasyncPath(
        validatedKeys: ["rooms", "room0", "messages", PushIdentifierGenerator().next(at: now)])
      self.message = message
      oldRoot = tree
      newRoot = tree.setting(message, at: path.keys)
      messageCount = rooms * messagesPerRoom
    }

    /// Checks the write under the chat's rules, as the database checks a set; whether it is
    /// allowed.
    package func checkUnderChatRules() -> Bool {
      check(under: chatRules)
    }

    /// Checks the write under ``DatasyncRules/open``; whether it is allowed.
    package func checkUnderOpenRules() -> Bool {
      check(under: .open)
    }

    private func check(under rules: DatasyncRules) -> Bool {
      rules.checkWrite(
        setting: message, at: path, auth: auth, oldRoot: oldRoot, newRoot: newRoot, now: now)
        == nil
    }
  }

  /// A chat database of `rooms` rooms of `messagesPerRoom` messages, and a message to write.
  package static func messageWrite(rooms: Int, messagesPerRoom: Int) -> MessageWrite {
    MessageWrite(rooms: rooms, messagesPerRoom: messagesPerRoom)
  }

  /// Messages written into a chat ``DatasyncDatabase`` by an authenticated client, as the back
  /// end receives them (checked, applied, acknowledged and announced to a client listening to
  /// the room), under the chat's rules or open rules.
  package final class DatabaseWrites {
    private let database: DatasyncDatabase
    private let writer = Client()
    private let listener = Client()
    private let paths: [DatasyncPath]
    private let messages: [JSONValue]
    private var written = 0

    /// A client of the database, which drops the messages it receives.
    private final class Client: Sendable {
      var identifier: ObjectIdentifier { ObjectIdentifier(self) }
    }

    fileprivate init(rooms: Int, messagesPerRoom: Int, chatRules: Bool) {
      let write = MessageWrite(rooms: rooms, messagesPerRoom: messagesPerRoom)
      let rules = chatRules ? try! DatasyncRules(json: RulesProbes.chatRules) : .open
      database = DatasyncDatabase(
        rules: rules, tokens: ["alice": DatasyncAuthentication(uid: "alice"), "admin": .admin])
      database.setClock { [now = write.now] in now }
      let seeder = Client()
      database.attach(seeder.identifier) { _ in }
      database.handle(.authenticate(0, token: "admin"), from: seeder.identifier)
      database.handle(.write(1, .set(.root, write.oldRoot)), from: seeder.identifier)
      database.detach(seeder.identifier)
      let room = DatasyncPath(validatedKeys: ["rooms", "room0", "messages"])
      let generator = PushIdentifierGenerator()
      paths = (0..<1_000).map { _ in room.child(generator.next(at: write.now)) }
      messages = ["Hello, everyone!", "Hello again!"].map { text in
        .object(
          JSONObject()
            .setting(.string("alice"), for: "author")
            .setting(.string(text), for: "text")
            .setting(.int(1_699_999_999_000), for: "sent"))
      }
      database.attach(writer.identifier) { _ in }
      database.handle(.authenticate(0, token: "alice"), from: writer.identifier)
      database.attach(listener.identifier) { _ in }
      database.handle(.authenticate(0, token: "alice"), from: listener.identifier)
      database.handle(.listen(room), from: listener.identifier)
    }

    /// Writes the next message: 1,000 locations in turn, each new value differing from the one
    /// it replaces. Not thread-safe: one thread writes.
    package func writeNext() {
      let index = written % paths.count
      let message = messages[(written / paths.count) % messages.count]
      written += 1
      database.handle(.write(UInt64(written), .set(paths[index], message)), from: writer.identifier)
    }

    /// Whether the database holds the last message written (the rules accepted it).
    package func lastWriteApplied() -> Bool {
      guard written > 0 else { return false }
      let index = (written - 1) % paths.count
      return database.value(at: paths[index])
        == messages[((written - 1) / paths.count) % messages.count]
    }
  }

  /// A chat database of `rooms` rooms of `messagesPerRoom` messages, a client writing messages
  /// into it and another listening to the room, under the chat's rules or open rules.
  package static func databaseWrites(rooms: Int, messagesPerRoom: Int, chatRules: Bool)
    -> DatabaseWrites
  {
    DatabaseWrites(rooms: rooms, messagesPerRoom: messagesPerRoom, chatRules: chatRules)
  }
}
