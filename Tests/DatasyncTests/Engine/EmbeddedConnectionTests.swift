import Foundation
import Testing

@testable import Datasync

@Suite struct EmbeddedConnectionTests {
  /// The batches a connection's receiver got, with a bounded wait for them.
  private final class Inbox: @unchecked Sendable {
    /// Protects `batches`.
    private let condition = NSCondition()
    private var batches: [[BackEndMessage]] = []

    func receive(_ batch: [BackEndMessage]) {
      condition.withLock {
        batches.append(batch)
        condition.broadcast()
      }
    }

    /// The batches received once `predicate` holds for the messages received (at most 10 s).
    func batches(until predicate: ([BackEndMessage]) -> Bool) -> [[BackEndMessage]] {
      let deadline = Date(timeIntervalSinceNow: 10)
      condition.lock()
      defer { condition.unlock() }
      while !predicate(batches.flatMap { $0 }), condition.wait(until: deadline) {}
      return batches
    }
  }

  /// The value a message carries for the child of `/feed` it changes, if it changes one.
  private static func feedValue(_ message: BackEndMessage) -> Int64? {
    let operation: WriteOperation
    switch message {
    case .changed(let write), .changedSharing(let write, _, _, _): operation = write
    default: return nil
    }
    guard case .set(_, .int(let value)) = operation else { return nil }
    return value
  }

  @Test func messagesArriveInOrderInBatchesOfOneOrMore() {
    let database = DatasyncDatabase()
    let writer = EmbeddedConnection(database: database, label: "writer")
    let listener = EmbeddedConnection(database: database, label: "listener")
    let writerInbox = Inbox()
    let listenerInbox = Inbox()
    writer.open(receiver: writerInbox.receive)
    listener.open(receiver: listenerInbox.receive)
    let feed = DatasyncPath(validatedKeys: ["feed"])
    listener.send(.listen(feed))
    listener.flush()
    _ = listenerInbox.batches { messages in
      messages.contains { if case .listenData = $0 { true } else { false } }
    }
    let writes: Int64 = 300
    for value in 1...writes {
      let child = feed.child(WebcomKey("k\(value)"))
      writer.send(.write(RequestIdentifier(value), .set(child, .int(value))))
      writer.flush()
    }

    let batches = listenerInbox.batches { $0.compactMap(Self.feedValue).count == writes }
    #expect(batches.allSatisfy { !$0.isEmpty })
    #expect(batches.flatMap { $0 }.compactMap(Self.feedValue) == Array(1...writes))
    let answers = writerInbox.batches { messages in
      messages.filter { if case .acknowledged = $0 { true } else { false } }.count == writes
    }
    let acknowledged = answers.flatMap { $0 }.compactMap { message -> RequestIdentifier? in
      guard case .acknowledged(let identifier, _) = message else { return nil }
      return identifier
    }
    #expect(acknowledged == Array(1...UInt64(writes)))
  }
}
