import Foundation
import Testing

@testable import Datasync

/// Records the events of subscriptions and lets a test wait for them with a bounded wait.
final class EventRecorder: @unchecked Sendable {
  /// Protects `events` and `completions`.
  private let condition = NSCondition()
  private var events: [DatasyncEvent] = []
  private var completions: [DatasyncSubscriptionCompletion] = []

  func record(_ event: DatasyncEvent) {
    condition.withLock {
      events.append(event)
      condition.broadcast()
    }
  }

  func complete(_ completion: DatasyncSubscriptionCompletion) {
    condition.withLock {
      completions.append(completion)
      condition.broadcast()
    }
  }

  var recorded: [DatasyncEvent] { condition.withLock { events } }
  var recordedCompletions: [DatasyncSubscriptionCompletion] { condition.withLock { completions } }

  /// Removes and returns the events recorded so far.
  @discardableResult
  func take() -> [DatasyncEvent] {
    condition.withLock {
      defer { events = [] }
      return events
    }
  }

  /// Waits (at most `timeout` seconds) until at least `count` events are recorded.
  @discardableResult
  func wait(forCount count: Int, timeout: TimeInterval = 10) -> Bool {
    wait(timeout: timeout) { $0.count >= count }
  }

  /// Waits (at most `timeout` seconds) until `predicate` holds for the recorded events.
  @discardableResult
  func wait(timeout: TimeInterval = 10, until predicate: ([DatasyncEvent]) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !predicate(events) {
      if !condition.wait(until: deadline) { return predicate(events) }
    }
    return true
  }

  /// Waits (at most `timeout` seconds) until `count` completions are recorded.
  @discardableResult
  func waitForCompletions(_ count: Int, timeout: TimeInterval = 10) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while completions.count < count {
      if !condition.wait(until: deadline) { return completions.count >= count }
    }
    return true
  }
}

/// A serial queue private to a test, for callbacks.
func makeTestQueue(_ name: String = #function) -> DispatchQueue {
  DispatchQueue(label: "test.\(name)")
}

/// An application on its own (or a shared) embedded database.
func makeApplication(
  _ identifier: String = "test", database: DatasyncDatabase = DatasyncDatabase()
) -> WebcomApplication {
  WebcomApplication(
    configuration: WebcomConfiguration(identifier: identifier, backEnd: .embedded(database)))
}

/// The failure of a test wait: a callback that was not called in time.
struct CallbackTimeout: Error, CustomStringConvertible {
  let timeout: TimeInterval

  var description: String { "the callback was not called within \(timeout) s" }
}

/// Box for a result delivered on another queue.
private final class ResultBox<T>: @unchecked Sendable {
  var result: WebcomResult<T>?
}

/// Runs a callback-form operation and waits (bounded) for its callback.
@discardableResult
func waitForResult<T>(
  timeout: TimeInterval = 10,
  _ start: (DispatchQueue, @escaping (WebcomResult<T>) -> Void) -> Void
) throws -> T {
  let semaphore = DispatchSemaphore(value: 0)
  let box = ResultBox<T>()
  start(DispatchQueue(label: "test.result")) { result in
    box.result = result
    semaphore.signal()
  }
  guard semaphore.wait(timeout: .now() + timeout) == .success, let result = box.result else {
    throw CallbackTimeout(timeout: timeout)
  }
  return try result.get()
}

/// A short description of an event for comparisons: "+key", "-key", "~key", "=value".
func describe(_ event: DatasyncEvent) -> String {
  switch event.eventType {
  case .childAddition: return "+\(event.key.value)"
  case .childRemoval: return "-\(event.key.value)"
  case .childChange: return "~\(event.key.value)"
  default: return "=\(event.value.json)"
  }
}

/// A value shared by test threads.
final class Shared<Value>: @unchecked Sendable {
  /// Protects `value`.
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) {
    self.value = value
  }

  func update<Result>(_ body: (inout Value) -> Result) -> Result {
    lock.withLock { body(&value) }
  }

  var current: Value { lock.withLock { value } }
}

/// Records only summaries of events (see `describe`), so that it keeps no node, manager or
/// subscription alive.
final class SummaryRecorder: @unchecked Sendable {
  /// Protects `summaries` and `completions`.
  private let condition = NSCondition()
  private var summaries: [String] = []
  private var completions: [DatasyncSubscriptionCompletion] = []

  func record(_ event: DatasyncEvent) {
    let summary = describe(event)
    condition.withLock {
      summaries.append(summary)
      condition.broadcast()
    }
  }

  func complete(_ completion: DatasyncSubscriptionCompletion) {
    condition.withLock {
      completions.append(completion)
      condition.broadcast()
    }
  }

  var recorded: [String] { condition.withLock { summaries } }
  var recordedCompletions: [DatasyncSubscriptionCompletion] { condition.withLock { completions } }

  /// Waits (at most `timeout` seconds) until `count` events and `completionCount` completions
  /// were recorded.
  @discardableResult
  func wait(events count: Int, completions completionCount: Int = 0, timeout: TimeInterval = 10)
    -> Bool
  {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while summaries.count < count || completions.count < completionCount {
      if !condition.wait(until: deadline) { return false }
    }
    return true
  }
}

/// A client attached straight to a database, recording what the database sends it.
final class RawClient: @unchecked Sendable {
  /// Protects `received`.
  private let lock = NSLock()
  private var received: [BackEndMessage] = []
  let database: DatasyncDatabase

  init(_ database: DatasyncDatabase) {
    self.database = database
    database.attach(ObjectIdentifier(self)) { [weak self] message in
      guard let self else { return }
      self.lock.withLock { self.received.append(message) }
    }
  }

  func send(_ request: ClientRequest) {
    database.handle(request, from: ObjectIdentifier(self))
  }

  /// Removes and returns the messages received so far (the database delivers synchronously).
  func take() -> [BackEndMessage] {
    lock.withLock {
      defer { received = [] }
      return received
    }
  }
}
