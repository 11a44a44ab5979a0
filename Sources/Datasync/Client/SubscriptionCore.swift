import Foundation

/// The engine side of a subscription: what it listens to and how to reach its subscriber.
///
/// Events are delivered in batches through the ``DeliveryMailbox`` of the subscriber's queue; a
/// batch checks before each event that the subscription is still active, so nothing is delivered
/// after ``complete(_:)``.
final class SubscriptionCore: Sendable {
  /// A subscriber's closures, carried to its queue (they are only ever called on `queue`), each
  /// in a box of its own, so that a delivery copies out of the lock only the one it calls (a
  /// bare function type read out of a lock's generic closure would come back wrapped in a newly
  /// allocated thunk).
  private struct Callbacks: Sendable {
    let onEvent: UncheckedBox<(DatasyncEvent) -> Void>
    let onDeliveryEnd: UncheckedBox<() -> Void>?
    let onCompletion: UncheckedBox<(DatasyncSubscriptionCompletion) -> Void>?
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
  /// Whether the subscriber asked to be told of the end of each batch (most do not: then the
  /// end of a batch takes no lock).
  private let hasDeliveryEndCallback: Bool

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
    hasDeliveryEndCallback = onDeliveryEnd != nil
    links = LockedValue(
      Links(
        callbacks: Callbacks(
          onEvent: UncheckedBox(onEvent), onDeliveryEnd: onDeliveryEnd.map(UncheckedBox.init),
          onCompletion: onCompletion.map(UncheckedBox.init))))
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
      guard let (onEvent, subscription, manager) = eventTarget() else { return }
      onEvent.value(
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
    guard hasDeliveryEndCallback else { return }
    let onDeliveryEnd = links.withLock { links -> UncheckedBox<() -> Void>? in
      guard !links.isCompleted, links.subscription != nil else { return nil }
      return links.callbacks?.onDeliveryEnd
    }
    onDeliveryEnd?.value()
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
      mailbox.queue.async { onCompletion.value(completion) }
    }
    return true
  }

  /// Removes the public subscription from its manager's store (after a revocation).
  func detachFromManager() {
    let (subscription, manager) = links.withLock { ($0.subscription, $0.manager) }
    if let subscription, let manager { manager.forget(subscription) }
  }

  /// The event closure, the public subscription and the manager, while the subscription is
  /// active.
  private func eventTarget() -> (
    UncheckedBox<(DatasyncEvent) -> Void>, DatasyncSubscription, DatasyncManager?
  )? {
    links.withLock { links in
      guard !links.isCompleted, let onEvent = links.callbacks?.onEvent,
        let subscription = links.subscription
      else { return nil }
      return (onEvent, subscription, links.manager)
    }
  }
}
