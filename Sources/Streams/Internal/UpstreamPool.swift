/// The upstream subscriptions of an operator with several upstreams at once (merge,
/// combineLatest, zip, the inner publishers of flatMap and switchToLatest), each with the demand
/// it still owes.
///
/// With finite downstream demand each upstream is asked for one value at a time, so at most one
/// value per upstream waits in the delivery queue; with unlimited demand each is asked once for
/// `.unlimited`. An operator with one upstream at a time (`switchToLatest`) sets
/// ``asksForAllUnused``: its upstream is then asked for all the unused demand at once, as Combine
/// forwards the outstanding demand to the inner publisher.
@usableFromInline
internal struct UpstreamPool {
  @usableFromInline
  internal struct Slot {
    @usableFromInline
    var subscription: (any Subscription)?
    @usableFromInline
    var outstanding = Subscribers.Demand.none

    @inlinable
    init() {}
  }

  /// A pool whose upstreams are asked for one value at a time.
  @inlinable
  init() {}

  /// A pool whose upstream is asked for all the unused demand at once when `asksForAllUnused`.
  @inlinable
  init(asksForAllUnused: Bool) {
    self.asksForAllUnused = asksForAllUnused
  }

  @usableFromInline
  var asksForAllUnused = false

  @usableFromInline
  var slots: [Int: Slot] = [:]

  @inlinable
  var isEmpty: Bool { slots.isEmpty }
  @inlinable
  var count: Int { slots.count }

  @inlinable
  func contains(_ id: Int) -> Bool { slots[id] != nil }

  /// Makes room for an upstream whose subscription has not arrived yet.
  @inlinable
  mutating func reserve(_ id: Int) {
    slots[id] = Slot()
  }

  /// Stores the subscription of upstream `id`; false when that upstream is no longer wanted.
  @inlinable
  mutating func attach(_ id: Int, _ subscription: any Subscription) -> Bool {
    guard slots[id] != nil, slots[id]?.subscription == nil else { return false }
    slots[id]?.subscription = subscription
    return true
  }

  /// Records a value from upstream `id`; false when that upstream is no longer wanted.
  @inlinable
  mutating func consume(_ id: Int) -> Bool {
    guard let slot = slots[id] else { return false }
    if slot.outstanding != .unlimited { slots[id]?.outstanding = slot.outstanding - 1 }
    return true
  }

  @inlinable
  mutating func remove(_ id: Int) -> (any Subscription)? {
    slots.removeValue(forKey: id)?.subscription
  }

  @inlinable
  mutating func removeAll() -> [any Subscription] {
    defer { slots = [:] }
    return slots.values.compactMap(\.subscription)
  }

  /// Asks upstream `id` for a value if it owes none and the downstream has `unused` demand.
  @inlinable
  mutating func refill(_ id: Int, unused: Subscribers.Demand, into effects: inout DeferredEffects) {
    guard let slot = slots[id], let subscription = slot.subscription, unused > 0 else { return }
    if unused == .unlimited {
      guard slot.outstanding != .unlimited else { return }
      slots[id]?.outstanding = .unlimited
      effects.request(.unlimited, from: subscription)
    } else if asksForAllUnused {
      let more = unused - slot.outstanding
      guard more > 0 else { return }
      slots[id]?.outstanding = unused
      effects.request(more, from: subscription)
    } else if slot.outstanding == .none {
      slots[id]?.outstanding = .max(1)
      effects.request(.max(1), from: subscription)
    }
  }

  /// Stores the subscription of upstream `id` and asks it for what the downstream's `unused`
  /// demand allows; cancels the subscription instead when the operator is over (`isLive` false)
  /// or that upstream is no longer wanted. Perform the effects after unlocking.
  @inlinable
  mutating func subscribed(
    _ id: Int, _ subscription: any Subscription, unused: Subscribers.Demand, isLive: Bool
  ) -> DeferredEffects {
    var effects = DeferredEffects()
    if isLive && attach(id, subscription) {
      refill(id, unused: unused, into: &effects)
    } else {
      effects.cancel(subscription)
    }
    return effects
  }

  /// Records a value from upstream `id` and asks that upstream for the next one if the
  /// downstream's `unused` demand, less this value, allows; nil when the value is not wanted (the
  /// operator is over, or the upstream was removed).
  @inlinable
  mutating func received(_ id: Int, unused: Subscribers.Demand, isLive: Bool) -> DeferredEffects? {
    guard isLive, consume(id) else { return nil }
    var effects = DeferredEffects()
    refill(id, unused: unused - 1, into: &effects)
    return effects
  }

  /// Notes that upstream `id` was asked for `demand` more, directly or by the demand a value
  /// returned to it.
  @inlinable
  mutating func asked(_ id: Int, for demand: Subscribers.Demand) {
    guard let slot = slots[id] else { return }
    slots[id]?.outstanding = slot.outstanding + demand
  }

  /// Asks upstream `id` for one more value, unless it owes unlimited values or left the pool.
  @inlinable
  mutating func askOneMore(_ id: Int, into effects: inout DeferredEffects) {
    guard let slot = slots[id], let subscription = slot.subscription,
      slot.outstanding != .unlimited
    else { return }
    slots[id]?.outstanding = slot.outstanding + 1
    effects.request(.max(1), from: subscription)
  }

  /// Asks every subscribed upstream for `demand` more values.
  @inlinable
  func requestAll(_ demand: Subscribers.Demand, into effects: inout DeferredEffects) {
    for id in slots.keys.sorted() {
      if let subscription = slots[id]?.subscription {
        effects.request(demand, from: subscription)
      }
    }
  }

  /// Upstream `id` completed: removes it. A failure ends the operator: the completion, with the
  /// other upstreams to cancel. A finish ends it when `finishesWhenEmpty` and no upstream is left.
  /// Nil when the operator goes on, or when `id` was not in the pool.
  @inlinable
  mutating func completed<Failure>(
    _ id: Int, with completion: Subscribers.Completion<Failure>, finishesWhenEmpty: Bool
  ) -> (completion: Subscribers.Completion<Failure>, effects: DeferredEffects)? {
    guard slots.removeValue(forKey: id) != nil else { return nil }
    var effects = DeferredEffects()
    switch completion {
    case .finished:
      guard finishesWhenEmpty, slots.isEmpty else { return nil }
    case .failure:
      effects.cancel(removeAll())
    }
    return (completion, effects)
  }

  /// ``refill(_:unused:into:)`` for every upstream for which `include` holds.
  @inlinable
  mutating func refillAll(
    unused: Subscribers.Demand, into effects: inout DeferredEffects,
    where include: (Int) -> Bool = { _ in true }
  ) {
    guard unused > 0 else { return }
    for id in slots.keys.sorted() where include(id) {
      refill(id, unused: unused, into: &effects)
    }
  }
}
