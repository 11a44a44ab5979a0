import Foundation

/// The engine side of a subscription: what it listens to and how to reach its subscriber.
///
/// Events are delivered in batches through the ``DeliveryMailbox`` of the subscriber's queue; a
/// batch checks before each event that the subscription is still active, so nothing is delivered
/// after ``complete(_:)``.
final class SubscriptionCore: Sendable {
  /// A subscriber's closures, carried to its queue: they are only ever called on `queue`.
  private struct Callbacks: @unchecked Sendable {
    let onEvent: (DatasyncEvent) -> Void
    let onDeliveryEnd: (() -> Void)?
    let onCompletion: ((DatasyncSubscriptionCompletion) -> Void)?
  }

  /// What the mutex protects.
  private struct Links {
    /// The subscriber's closures, released when the subscription completes.
    var callbacks: Callbacks?
    weak var subscription: DatasyncSubscription?
    weak var manager: DatasyncManager?
    var isCompleted = false
  }

  let identifier = SubscriptionIdentifier.next()
  let path: DatasyncPath
  let constraint: DatasyncChildrenConstraint
  let eventType: DatasyncEventType
  /// Which of the subscription's events wait while its queue is behind.
  let conflation: DeliveryConflation
  let mailbox: DeliveryMailbox
  let context: ApplicationContext
  private let links: LockedValue<Links>

  /// A subscription whose subscriber gets each event through `onEvent`, then `onDeliveryEnd`
  /// after the last event of each batch delivered to it, and `onCompletion` once at the end; all
  /// on `queue`. While the queue is behind, the events waiting for it are those `conflation`
  /// keeps.
  init(
    path: DatasyncPath, constraint: DatasyncChildrenConstraint, eventType: DatasyncEventType,
    queue: DispatchQueue, context: ApplicationContext, conflation: DeliveryConflation = .none,
    onEvent: @escaping (DatasyncEvent) -> Void, onDeliveryEnd: (() -> Void)? = nil,
    onCompletion: ((DatasyncSubscriptionCompletion) -> Void)?
  ) {
    self.path = path
    self.constraint = constraint
    self.eventType = eventType
    self.conflation = conflation
    self.mailbox = DeliveryMailbox.mailbox(for: queue)
    self.context = context
    links = LockedValue(
      Links(
        callbacks: Callbacks(
          onEvent: onEvent, onDeliveryEnd: onDeliveryEnd, onCompletion: onCompletion)))
  }

  /// Links the public subscription and the manager used to build events' nodes (both weakly).
  func attach(_ subscription: DatasyncSubscription, manager: DatasyncManager) {
    links.withLock { links in
      links.subscription = subscription
      links.manager = manager
    }
  }

  var isActive: Bool { links.withLock { !$0.isCompleted } }

  /// Delivers a batch of events to the subscriber, stopping if the subscription ends. Called by
  /// the mailbox, on the subscriber's queue.
  func deliver(_ records: [EventRecord]) {
    for record in records {
      guard let (callbacks, subscription, manager) = currentTarget() else { return }
      callbacks.onEvent(
        DatasyncEvent(
          value: context.value(eventType.isWithoutData ? .null : record.value),
          key: record.path.key, previousKey: record.previousKey,
          acked: record.acked, eventType: record.eventType, manager: manager,
          location: record.path, subscription: subscription))
    }
  }

  /// Tells the subscriber that the batch of events delivered to it is complete. Called by the
  /// mailbox, on the subscriber's queue.
  func endDelivery() {
    guard let (callbacks, _, _) = currentTarget() else { return }
    callbacks.onDeliveryEnd?()
  }

  /// Ends the subscription: no event is delivered afterwards, and `onCompletion` is called once
  /// on the subscriber's queue. Returns false when it had already ended.
  @discardableResult
  func complete(_ completion: DatasyncSubscriptionCompletion) -> Bool {
    let released = links.withLock { links -> Callbacks? in
      guard !links.isCompleted else { return nil }
      links.isCompleted = true
      defer { links.callbacks = nil }
      return links.callbacks
    }
    guard let released else { return false }
    if let onCompletion = released.onCompletion {
      // Only the completion travels: the event closures are released now.
      let box = UncheckedBox(onCompletion)
      mailbox.queue.async { box.value(completion) }
    }
    return true
  }

  /// Removes the public subscription from its manager's store (after a revocation).
  func detachFromManager() {
    let (subscription, manager) = links.withLock { ($0.subscription, $0.manager) }
    if let subscription, let manager { manager.forget(subscription) }
  }

  private func currentTarget() -> (Callbacks, DatasyncSubscription, DatasyncManager?)? {
    links.withLock { links in
      guard !links.isCompleted, let callbacks = links.callbacks,
        let subscription = links.subscription
      else { return nil }
      return (callbacks, subscription, links.manager)
    }
  }
}
