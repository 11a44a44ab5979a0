import Foundation
import Testing

@testable import Datasync

/// The scenario of the observer-duplication article: re-attaching observers must never duplicate
/// rows, and the value event after the child additions tells that the initial load is complete.
@Suite struct ObserverDuplicationTests {
  /// What one pair of subscriptions (child additions, then value) saw.
  private final class Screen: @unchecked Sendable {
    /// Accessed only on the test's serial queue.
    var rows: [String: Int] = [:]
    var additionsBeforeLoad = 0
    var loadCompleteCount = 0
    var duplicates = 0
    var liveAdditions: [String] = []
  }

  @Test func reSubscribingTenTimesNeverDuplicatesAndAlwaysSignalsTheInitialLoad() throws {
    let queue = DispatchQueue(label: "test.article")
    let manager = makeApplication().datasyncService.createManager()
    let messages = try manager.nodeThrows(for: "messages/user")
    var initial: [String: Int] = [:]
    for index in 0..<500 { initial[String(format: "m%04d", index)] = index }
    try waitForResult { messages.set(initial, queue: $0, then: $1) }

    for round in 0..<10 {
      let screen = Screen()
      let loaded = DispatchSemaphore(value: 0)
      let additions = try #require(
        messages.subscribe(
          to: .childAddition, queue: queue,
          onEvent: { event in
            if screen.rows[event.key.value] != nil { screen.duplicates += 1 }
            screen.rows[event.key.value] = event.value.asInt
            if screen.loadCompleteCount == 0 {
              screen.additionsBeforeLoad += 1
            } else {
              screen.liveAdditions.append(event.key.value)
            }
          }))
      let value = try #require(
        messages.subscribe(
          to: .valueChange, queue: queue,
          onEvent: { _ in
            screen.loadCompleteCount += 1
            if screen.loadCompleteCount == 1 { loaded.signal() }
          }))
      #expect(loaded.wait(timeout: .now() + 10) == .success)
      let liveKey = "live\(round)"
      try waitForResult { messages.relativeNode(for: liveKey)!.set(round, queue: $0, then: $1) }
      queue.sync {}
      additions.cancel()
      value.cancel()
      try waitForResult { messages.relativeNode(for: liveKey)!.clear(queue: $0, then: $1) }
      queue.sync {
        #expect(screen.additionsBeforeLoad == 500)
        #expect(screen.duplicates == 0)
        #expect(screen.liveAdditions == [liveKey])
        #expect(screen.rows.count == 501)
        #expect(screen.loadCompleteCount == 2)
      }
    }
  }
}
