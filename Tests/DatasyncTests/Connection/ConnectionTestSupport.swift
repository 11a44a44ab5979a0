import Foundation
import Testing

@testable import Datasync

/// One client of a shared embedded database, with the connection's test hooks at hand.
struct TestClient {
  let service: DatasyncService
  let manager: DatasyncManager

  init(_ name: String, database: DatasyncDatabase) {
    service = makeApplication(name, database: database).datasyncService
    manager = service.createManager()
  }

  /// The embedded connection (latency, dropped connection).
  var connection: EmbeddedConnection {
    guard let connection = service.embeddedConnection else {
      preconditionFailure("a test client always uses the embedded back end")
    }
    return connection
  }

  func node(_ path: String) throws -> DatasyncNode {
    try manager.nodeThrows(for: path)
  }
}

/// Counts callbacks and lets a test wait (bounded) for a number of them.
final class CallbackCounter: @unchecked Sendable {
  /// Protects `successes` and `failures`.
  private let condition = NSCondition()
  private var successes = 0
  private var failures: [WebcomError] = []

  func record<T>(_ result: WebcomResult<T>) {
    condition.withLock {
      switch result {
      case .success: successes += 1
      case .failure(let error): failures.append(error)
      }
      condition.broadcast()
    }
  }

  var succeeded: Int { condition.withLock { successes } }
  var failed: [WebcomError] { condition.withLock { failures } }

  /// Waits (at most `timeout` seconds) until `count` callbacks were called.
  @discardableResult
  func wait(for count: Int, timeout: TimeInterval = 20) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while successes + failures.count < count {
      if !condition.wait(until: deadline) { return successes + failures.count >= count }
    }
    return true
  }
}

/// Records the connection states a manager observes.
final class StateRecorder: @unchecked Sendable {
  /// Protects `states`.
  private let condition = NSCondition()
  private var states: [DatasyncState] = []

  func record(_ state: DatasyncState) {
    condition.withLock {
      states.append(state)
      condition.broadcast()
    }
  }

  var recorded: [DatasyncState] { condition.withLock { states } }

  /// Waits (at most `timeout` seconds) until the last state seen is connected (or disconnected).
  @discardableResult
  func wait(connected: Bool, timeout: TimeInterval = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while states.last.map({ ($0 != .disconnected) == connected }) != true {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }
}
