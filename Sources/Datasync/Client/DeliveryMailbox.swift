import Foundation

/// The events waiting for the subscriptions of one dispatch queue, delivered in batches: however
/// many writes and subscriptions raise events, a queue gets one `async` call until that call
/// starts; everything posted meanwhile rides with it.
///
/// A post is followed by a ``kick()`` before the operation that posted returns to the
/// application; the kick leaves a drain enqueued on the queue behind the post (one made at that
/// kick, or an earlier one that has not started), so work the application enqueues after a write
/// still runs after that write's events, as if each event had its own `async` call. Between the
/// two, the poster may post more (a write's acknowledgement), which rides in the same batch. Batches are delivered in
/// the order they were posted. After the events of a drain, each subscription that got some is
/// told the drain ended (``SubscriptionCore/endDelivery()``), once: a subscriber that coalesces
/// (the streams of the latest value, or of the children) emits there, once for every write that
/// waited for its queue while it was busy.
///
/// One mailbox serves every subscription of its queue in the process; ``mailbox(for:)`` finds it.
final class DeliveryMailbox: Sendable {
  /// Events for a subscription, in order.
  struct Parcel: Sendable {
    let subscription: SubscriptionCore
    let records: [EventRecord]
  }

  /// What the mutex protects.
  private struct Waiting {
    var parcels: [Parcel] = []
    /// Whether a drain is enqueued and has not started: it will take the parcels posted until
    /// then.
    var isScheduled = false
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

  /// Adds parcels, in order, after those waiting; the poster kicks the mailbox afterwards. When
  /// none waits (a drain took them), the array posted becomes the waiting one, without a copy.
  func post(_ parcels: [Parcel]) {
    guard !parcels.isEmpty else { return }
    waiting.withLock { waiting in
      if waiting.parcels.isEmpty {
        waiting.parcels = parcels
      } else {
        waiting.parcels.append(contentsOf: parcels)
      }
    }
  }

  /// Enqueues a drain when parcels wait, unless one that has not started is enqueued already.
  func kick() {
    let schedules = waiting.withLock { waiting in
      guard !waiting.isScheduled, !waiting.parcels.isEmpty else { return false }
      waiting.isScheduled = true
      return true
    }
    if schedules { queue.async { self.drain() } }
  }

  /// Delivers the parcels waiting when it starts.
  private func drain() {
    let parcels = waiting.withLock { waiting in
      waiting.isScheduled = false
      defer { waiting.parcels = [] }
      return waiting.parcels
    }
    var served: [SubscriptionCore] = []
    served.reserveCapacity(min(parcels.count, Self.linearlySearchedCount))
    var isServed = Set<ObjectIdentifier>()
    for parcel in parcels {
      parcel.subscription.deliver(parcel.records)
      if Self.isNew(parcel.subscription, in: served, indexedBy: &isServed) {
        served.append(parcel.subscription)
      }
    }
    for subscription in served { subscription.endDelivery() }
  }

  /// Up to how many subscriptions a drain finds a served one by a linear search, without
  /// hashing (a queue usually serves a few subscriptions per write).
  private static let linearlySearchedCount = 8

  /// Whether `subscription` is not among `served` yet; past ``linearlySearchedCount`` served
  /// subscriptions, `index` holds their identifiers.
  private static func isNew(
    _ subscription: SubscriptionCore, in served: [SubscriptionCore],
    indexedBy index: inout Set<ObjectIdentifier>
  ) -> Bool {
    guard served.count >= linearlySearchedCount else {
      return !served.contains { $0 === subscription }
    }
    if index.isEmpty { index = Set(served.lazy.map(ObjectIdentifier.init)) }
    return index.insert(ObjectIdentifier(subscription)).inserted
  }
}

/// A registry entry that does not keep its mailbox alive.
private struct WeakMailbox {
  weak var mailbox: DeliveryMailbox?
}
