import Foundation
import Testing

@testable import Datasync

/// A client in the same process as its database keeps, at the paths it listens to, the
/// database's own storage: a write another client makes reaches it as the new value of its
/// listen, not as a write to apply to a copy.
@Suite struct SharedTreeTests {
  @Test func aListenerInTheSameProcessSharesTheDatabaseStorage() throws {
    let database = DatasyncDatabase()
    let path = try DatasyncPath(parsing: "rooms/general/messages")
    let reader = try makeApplication("reader", database: database).datasyncService
      .createManager().nodeThrows(for: path.string)
    let writer = makeApplication("writer", database: database).datasyncService.createManager()
    let queue = DispatchQueue(label: "test.shared-tree")
    let events = EventRecorder()
    reader.subscribe(to: .valueChange, queue: queue, onEvent: events.record)
    #expect(events.wait(forCount: 1))
    for index in 0..<3 {
      let message = try writer.nodeThrows(for: "\(path.string)/m\(index)")
      try waitForResult { message.set("hello", queue: $0, then: $1) }
    }
    #expect(events.wait { $0.last?.value.asDictionary()?.count == 3 })
    queue.sync {}
    #expect(reader.cachedValue.tree.isIdentical(to: database.value(at: path)))
  }

  @Test func aClientsOwnWritesWhereItListensKeepSharingTheDatabaseStorage() throws {
    let database = DatasyncDatabase()
    let path = try DatasyncPath(parsing: "rooms/general/messages")
    let room = try makeApplication("writer", database: database).datasyncService
      .createManager().nodeThrows(for: path.string)
    let queue = DispatchQueue(label: "test.shared-tree")
    let events = EventRecorder()
    room.subscribe(to: .valueChange, queue: queue, onEvent: events.record)
    #expect(events.wait(forCount: 1))
    for index in 0..<3 {
      let message = try #require(room.relativeNode(for: "m\(index)"))
      try waitForResult { message.set("hello \(index)", queue: $0, then: $1) }
    }
    queue.sync {}
    #expect(room.cachedValue.asDictionary()?.count == 3)
    #expect(room.cachedValue.tree.isIdentical(to: database.value(at: path)))
  }

  /// The database takes a write's expected result only from a client that shares its storage,
  /// and only while its value at the expected location is the very value the client wrote on.
  @Test func theDatabaseTakesAnExpectedResultOnlyOverItsOwnUnchangedStorage() throws {
    let database = DatasyncDatabase()
    let room = try DatasyncPath(parsing: "room")
    let clients = (sharing: NSObject(), plain: NSObject())
    let sharing = ObjectIdentifier(clients.sharing)
    let plain = ObjectIdentifier(clients.plain)
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(Data(text.utf8)) }
    database.attach(sharing, sharingTree: true) { _ in }
    database.attach(plain) { _ in }
    database.handle(.write(1, .set(room, try json(#"{"a":1}"#))), from: sharing)
    let base = database.value(at: room)
    func expecting(_ result: String, over base: JSONValue) throws -> ExpectedWrite {
      ExpectedWrite(location: room, base: base, result: try json(result))
    }
    let write = WriteOperation.set(room.child("b"), .int(2))

    // Over the database's own storage, the expected result is taken as it is.
    let result = try expecting(#"{"a":1,"b":2}"#, over: base)
    database.handle(.write(2, write), expecting: result, from: sharing)
    #expect(database.value(at: room).isIdentical(to: result.result))

    // Over a value that is no longer the database's, the write is applied instead.
    let stale = try expecting(#"{"wrong":true}"#, over: base)
    database.handle(.write(3, .set(room.child("c"), .int(3))), expecting: stale, from: sharing)
    #expect(database.value(at: room) == (try json(#"{"a":1,"b":2,"c":3}"#)))

    // A client that does not share the storage gets its write applied, whatever it expects.
    let current = database.value(at: room)
    let ignored = try expecting(#"{"wrong":true}"#, over: current)
    database.handle(.write(4, .set(room.child("d"), .int(4))), expecting: ignored, from: plain)
    #expect(database.value(at: room) == (try json(#"{"a":1,"b":2,"c":3,"d":4}"#)))
    withExtendedLifetime(clients) {}
  }

  @Test func aSharingClientGetsTheValueOfItsOutermostListenCoveringTheWrite() throws {
    let write = WriteOperation.set(try DatasyncPath(parsing: "rooms/a/messages/m"), .string("hi"))
    let tree = write.applyingOptimistically(to: .null)
    let listens: Set<DatasyncPath> = [
      try DatasyncPath(parsing: "rooms/a/messages"), try DatasyncPath(parsing: "rooms"),
      try DatasyncPath(parsing: "users"),
    ]
    let shared = write.messages(to: listens, in: tree, sharing: true)
    guard shared.count == 1, case .changedSharing(_, let listen, let value) = shared[0] else {
      Issue.record("expected one shared change, got \(shared)")
      return
    }
    #expect(listen.string == "/rooms")
    #expect(value.isIdentical(to: tree.value(at: listen.keys)))
    let plain = write.messages(to: listens, in: tree)
    guard plain.count == 1, case .changed = plain[0] else {
      Issue.record("expected the write itself, got \(plain)")
      return
    }
  }
}
