import Foundation
import Testing

@testable import Datasync

/// The embedded back end's write rule: a rejected write is reverted on the client.
@Suite struct DatasyncDatabaseTests {
  @Test func aRejectedPushIsRevertedLocallyAndReportsTheError() throws {
    let database = DatasyncDatabase()
    database.setWriteRule { path in
      path.keys.contains("locked") ? WebcomError(.permissionDenied, "\(path) is locked") : nil
    }
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
    let child = try #require(
      list.push("secret", queue: queue) { outcome in result.update { $0 = outcome } })
    #expect(recorder.wait(forCount: 2) && loaded.wait(forCount: 3))
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
