import Foundation

/// The events waiting for the subscriptions of one dispatch queue, delivered in one batch per
/// queue: however many writes and subscriptions raise events, a queue gets one `async` call while
/// its previous batch is still waiting or running.
///
/// Parcels (a subscription's events, its completion, a request's answer) are delivered in the order they were
/// posted, one drain at a time, so a subscription on a concurrent queue still gets its events in
/// order and never two at once. After the parcels of a drain, each subscription that got events
/// in it is told the drain ended (``SubscriptionCore/endDelivery()``), once: a subscriber that
/// can coalesce (the streams of the latest value or children) emits there, once for every write
/// that was waiting for it.
///
/// One mailbox serves every subscription of its queue in the process; ``mailbox(for:)`` finds it.
final class DeliveryMailbox: Sendable {
  /// What a drain delivers.
  enum Parcel: Sendable {
    /// Events for a subscription, in order.
    case events(SubscriptionCore, [EventRecord])
    /// A call to make in turn: a subscription's completion, a request's answer.
    case call(@Sendable () -> Void)
  }

  /// What the mutex protects.
  private struct Waiting {
    var parcels: [Parcel] = []
    /// Whether a drain is scheduled or running: it schedules the next one itself.
    var isDraining = false
  }

  let queue: DispatchQueue
  private let waiting = LockedValue(Waiting())

  private init(queue: DispatchQueue) {
    self.queue = queue
  }

  /// The mailboxes alive, by queue (a mailbox holds its queue, so an identifier cannot be reused
  /// while its mailbox lives).
  private static let registry = LockedValue([ObjectIdentifier: WeakMailbox]())

  /// The mailbox of `queue`, made when no subscription of the queue holds one.
  static func mailbox(for queue: DispatchQueue) -> DeliveryMailbox {
    registry.withLock { registry in
      let key = ObjectIdentifier(queue)
      if let existing = registry[key]?.mailbox { return existing }
      let made = DeliveryMailbox(queue: queue)
      registry[key] = WeakMailbox(mailbox: made)
      return made
    }
  }

  deinit {
    let key = ObjectIdentifier(queue)
    Self.registry.withLock { registry in
      if registry[key]?.mailbox == nil { registry[key] = nil }
    }
  }

  /// Adds parcels, in order, after those waiting; schedules a drain unless one is pending.
  func post(_ parcels: [Parcel]) {
    guard !parcels.isEmpty else { return }
    let schedules = waiting.withLock { waiting in
      waiting.parcels.append(contentsOf: parcels)
      guard !waiting.isDraining else { return false }
      waiting.isDraining = true
      return true
    }
    if schedules { queue.async { self.drain() } }
  }

  /// Delivers the parcels waiting when it starts; those posted meanwhile go to the next drain,
  /// scheduled behind the work already on the queue.
  private func drain() {
    let parcels = waiting.withLock { waiting in
      defer { waiting.parcels = [] }
      return waiting.parcels
    }
    var served: [SubscriptionCore] = []
    var isServed = Set<ObjectIdentifier>()
    for parcel in parcels {
      switch parcel {
      case .events(let subscription, let records):
        subscription.deliver(records)
        if isServed.insert(ObjectIdentifier(subscription)).inserted {
          served.append(subscription)
        }
      case .call(let call):
        call()
      }
    }
    for subscription in served { subscription.endDelivery() }
    let continues = waiting.withLock { waiting in
      if waiting.parcels.isEmpty { waiting.isDraining = false }
      return waiting.isDraining
    }
    if continues { queue.async { self.drain() } }
  }
}

/// A registry entry that does not keep its mailbox alive.
private struct WeakMailbox {
  weak var mailbox: DeliveryMailbox?
}
