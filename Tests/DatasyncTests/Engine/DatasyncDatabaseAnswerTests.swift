import Foundation
import Testing

@testable import Datasync

/// The back end's answers to writes, as a connection receives them.
@Suite struct DatasyncDatabaseAnswerTests {
  final class Inbox: @unchecked Sendable {
    /// Protects `messages`.
    private let lock = NSLock()
    private var messages: [BackEndMessage] = []

    func deliver(_ message: BackEndMessage) { lock.withLock { messages.append(message) } }
    var received: [BackEndMessage] { lock.withLock { messages } }
  }

  @Test func aStaleCompareAndSetIsRefusedWithTransactionAborted() throws {
    let database = DatasyncDatabase()
    let client = Inbox()
    let identity = ObjectIdentifier(client)
    database.attach(identity, deliver: client.deliver)
    let path = try DatasyncPath(parsing: "counter")
    database.handle(.write(1, .set(path, .int(5))), from: identity)
    database.handle(
      .write(2, .compareAndSet(path, expected: .int(4), value: .int(6))), from: identity)
    database.handle(
      .write(3, .compareAndSet(path, expected: .int(5), value: .int(6))), from: identity)
    guard case .rejected(2, let error, let current)? = client.received.dropFirst(2).first else {
      Issue.record("expected the rejection of the stale compare-and-set: \(client.received)")
      return
    }
    #expect(error.code == .transactionAborted)
    #expect(error.message.contains("/counter"))
    #expect(current == .int(5))
    guard case .acknowledged(3, _)? = client.received.last else {
      Issue.record("expected the acknowledgement of the fresh compare-and-set")
      return
    }
    #expect(database.value(at: path) == .int(6))
  }
}
