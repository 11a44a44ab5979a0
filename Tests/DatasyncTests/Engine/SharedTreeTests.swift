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

  @Test func aSharingClientGetsTheValueOfItsOutermostListenCoveringTheWrite() throws {
    let write = WriteOperation.set(try DatasyncPath(parsing: "rooms/a/messages/m"), .string("hi"))
    let tree = write.applyingOptimistically(to: .null)
    let listens: Set<DatasyncPath> = [
      try DatasyncPath(parsing: "rooms/a/messages"), try DatasyncPath(parsing: "rooms"),
      try DatasyncPath(parsing: "users"),
    ]
    let shared = write.messages(to: listens, in: tree, sharing: true)
    guard shared.count == 1, case .changedSharing(_, let listen, let value, _) = shared[0] else {
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

  /// A shared set comes with the value it replaced at its node, found while the back end applied
  /// it (null where there was none); other writes come without.
  @Test func aSharedSetComesWithTheValueItReplaced() throws {
    let messages = try DatasyncPath(parsing: "rooms/a/messages")
    let listens: Set<DatasyncPath> = [messages]
    let previous = WriteOperation.set(messages, try jsonValue(#"{"m1":"hi","m2":"yo"}"#))
      .applyingOptimistically(to: .null)
    func replaced(by write: WriteOperation) throws -> JSONValue?? {
      let (tree, announced, replaced) = try write.applyingAuthoritatively(to: previous)
      let shared = announced.messages(to: listens, in: tree, replaced: replaced, sharing: true)
      guard shared.count == 1, case .changedSharing(_, _, let value, let replaced) = shared[0]
      else { return nil }
      #expect(value.isIdentical(to: tree.value(at: messages.keys)))
      return .some(replaced)
    }
    let change = WriteOperation.set(messages.child("m1"), .string("hello"))
    #expect(try replaced(by: change) == .some(.string("hi")))
    let addition = WriteOperation.set(messages.child("m3"), .string("new"))
    #expect(try replaced(by: addition) == .some(.null))
    let merge = WriteOperation.merge(
      messages, try MergeEntry.entries(from: [("m2", .string("hey"))]))
    #expect(try replaced(by: merge) == .some(nil))
  }
}
