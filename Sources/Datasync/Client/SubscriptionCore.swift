import Foundation

/// One event waiting for delivery, without its public wrappers (built on the subscriber's queue).
struct EventRecord: Sendable {
  let eventType: DatasyncEventType
  /// The node the event is about (the child for child events).
  let path: DatasyncPath
  let value: JSONValue
  let previousKey: WebcomKey?
  let acked: Bool
}

/// The engine side of a subscription: what it listens to and how to reach its subscriber.
///
/// Events are delivered in batches on the subscriber's queue; a batch checks before each event
/// that the subscription is still active, so nothing is delivered after ``complete(_:)``.
final class SubscriptionCore: @unchecked Sendable {
  /// A subscriber's closures, moved across queues (they are only called on `queue`).
  private struct Callbacks: @unchecked Sendable {
    let onEvent: (DatasyncEvent) -> Void
    let onCompletion: ((DatasyncSubscriptionCompletion) -> Void)?
  }

  let path: DatasyncPath
  let constraint: DatasyncChildrenConstraint
  let eventType: DatasyncEventType
  let queue: DispatchQueue
  let context: ApplicationContext
  /// Set once by the client when the subscription is registered; orders replays.
  var sequence: UInt64 = 0

  /// Protects `callbacks`, `subscription`, `manager` and `isCompleted`.
  private let lock = NSLock()
  private var callbacks: Callbacks?
  private weak var subscription: DatasyncSubscription?
  private weak var manager: DatasyncManager?
  private var isCompleted = false

  init(
    path: DatasyncPath, constraint: DatasyncChildrenConstraint, eventType: DatasyncEventType,
    queue: DispatchQueue, context: ApplicationContext, onEvent: @escaping (DatasyncEvent) -> Void,
    onCompletion: ((DatasyncSubscriptionCompletion) -> Void)?
  ) {
    self.path = path
    self.constraint = constraint
    self.eventType = eventType
    self.queue = queue
    self.context = context
    self.callbacks = Callbacks(onEvent: onEvent, onCompletion: onCompletion)
  }

  /// Links the public subscription and the manager used to build events' nodes (both weakly).
  func attach(_ subscription: DatasyncSubscription, manager: DatasyncManager) {
    lock.withLock {
      self.subscription = subscription
      self.manager = manager
    }
  }

  var isActive: Bool { lock.withLock { !isCompleted } }

  /// Whether the subscription asked for events of this single type.
  func wants(_ single: DatasyncEventType) -> Bool { eventType.contains(single) }

  /// Enqueues a batch of events on the subscriber's queue.
  func enqueue(_ records: [EventRecord]) {
    guard !records.isEmpty else { return }
    queue.async { [self] in
      for record in records {
        guard let (onEvent, subscription, manager) = currentTarget() else { return }
        let node = manager.map { DatasyncNode(manager: $0, location: record.path) }
        onEvent(
          DatasyncEvent(
            value: context.value(eventType.isWithoutData ? .null : record.value),
            previousChildKey: record.previousKey?.value, key: record.path.key,
            acked: record.acked, eventType: record.eventType, node: node,
            subscription: subscription))
      }
    }
  }

  /// Ends the subscription: no event is delivered afterwards, and `onCompletion` is called once
  /// on the subscriber's queue. Returns false when it had already ended.
  @discardableResult
  func complete(_ completion: DatasyncSubscriptionCompletion) -> Bool {
    let released = lock.withLock { () -> Callbacks? in
      guard !isCompleted else { return nil }
      isCompleted = true
      defer { callbacks = nil }
      return callbacks
    }
    guard let released else { return false }
    if let onCompletion = released.onCompletion {
      let box = Callbacks(onEvent: { _ in }, onCompletion: onCompletion)
      queue.async { box.onCompletion?(completion) }
    }
    return true
  }

  /// Removes the public subscription from its manager's store (after a revocation).
  func detachFromManager() {
    lock.lock()
    let subscription = self.subscription
    let manager = self.manager
    lock.unlock()
    if let subscription, let manager { manager.forget(subscription) }
  }

  private func currentTarget() -> (
    (DatasyncEvent) -> Void, DatasyncSubscription, DatasyncManager?
  )? {
    lock.withLock {
      guard !isCompleted, let callbacks, let subscription else { return nil }
      return (callbacks.onEvent, subscription, manager)
    }
  }
}
