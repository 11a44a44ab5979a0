import Foundation
import Testing

@testable import Datasync

/// A write the back end's rules reject is reverted on the client.
@Suite struct DatasyncDatabaseTests {
  @Test func aRejectedPushIsRevertedLocallyAndReportsTheError() throws {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(
        json: #"{"rules": {".read": true, "$top": {".write": "$top != 'locked'"}}}"#))
    let queue = DispatchQueue(label: "test.rejected")
    let manager = makeApplication(database: database).datasyncService.createManager()
    let list = try manager.nodeThrows(for: "locked")
    let recorder = EventRecorder()
    list.subscribe(
      to: .child(addition: true, removal: true), queue: queue, onEvent: recorder.record)
    let loaded = EventRecorder()
    list.subscribe(to: .valueChange, queue: queue, onEvent: loaded.record)
    #expect(loaded.wait(forCount: 1))
    let result = Shared<WebcomResult<Void>?>(nil)
    let answered = DispatchSemaphore(value: 0)
    let child = try #require(
      list.push("secret", queue: queue) { outcome in
        result.update { $0 = outcome }
        answered.signal()
      })
    #expect(recorder.wait(forCount: 2) && loaded.wait(forCount: 3))
    // The callback is queued after the events that revert the push.
    #expect(answered.wait(timeout: .now() + 10) == .success)
    queue.sync {}
    #expect(recorder.recorded.map(describe) == ["+\(child.key.value)", "-\(child.key.value)"])
    #expect(recorder.recorded.map(\.acked) == [false, true])
    #expect(
      loaded.recorded.map(\.value.isNull) == [true, false, true],
      "\(loaded.recorded.map { ($0.value.json, $0.acked) }) \(recorder.recorded.map(describe))")
    guard case .failure(let error)? = result.current else {
      Issue.record("the push should fail")
      return
    }
    #expect(error.code == .permissionDenied)
    #expect(database.value(at: try DatasyncPath(parsing: "locked")) == .null)
    #expect(list.cachedValue.isNull)
  }
}

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

@Suite struct RevocationTests {
  final class Directory: @unchecked Sendable {
    /// Accessed only on the test's queue.
    var members: [String: Int] = [:]
  }

  @Test func aRevokedSubscriptionCompletesWithItsErrorAndItsDataIsDropped() throws {
    let database = DatasyncDatabase()
    let queue = DispatchQueue(label: "test.revocation")
    let manager = makeApplication(database: database).datasyncService.createManager()
    let node = try manager.nodeThrows(for: "private/members")
    try waitForResult { node.set(["ada": 1, "alan": 2], queue: $0, then: $1) }
    // The dictionary's subscription comes first, so its completion is queued before the value
    // subscription's, which the test waits for.
    let directory = Directory()
    node.assignChildren(to: \.members, on: directory, queue: queue)
    let recorder = EventRecorder()
    node.subscribe(
      to: .valueChange, queue: queue, onEvent: recorder.record, onCompletion: recorder.complete)
    #expect(recorder.wait(forCount: 1))
    #expect(queue.sync { directory.members } == ["ada": 1, "alan": 2])
    let error = WebcomError(.permissionDenied, "read access to /private was revoked")
    database.revokeListens(at: try DatasyncPath(parsing: "private"), error: error)
    #expect(recorder.waitForCompletions(1))
    queue.sync {}
    #expect(recorder.recordedCompletions == [.revoked(error)])
    #expect(recorder.recordedCompletions.first?.error == error)
    #expect(queue.sync { directory.members }.isEmpty)
    #expect(node.cachedValue.isNull)
    try waitForResult { node.relativeNode(for: "grace")!.set(3, queue: $0, then: $1) }
    queue.sync {}
    #expect(recorder.recorded.count == 1)
    withExtendedLifetime(directory) {}
  }
}
