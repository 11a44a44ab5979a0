import Foundation
import Testing

@testable import Datasync

/// A write the back end's rules reject is reverted on the client.
@Suite struct RejectedWriteTests {
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
