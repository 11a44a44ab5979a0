import Foundation
import Testing

@testable import Datasync

/// Subscriptions the back end stops serving end with its error, and their data is dropped.
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
