/// The upstream subscriptions of a combining operator and the demand each one still owes.
///
/// With finite downstream demand each upstream is asked for one value at a time, so at most one
/// value per upstream waits in the outlet; with unlimited demand each is asked once for
/// `.unlimited`. An operator with one upstream at a time (`switchToLatest`) sets
/// ``asksForAllUnused``: its upstream is then asked for all the unused demand at once, as Combine
/// forwards the outstanding demand to the inner publisher.
@usableFromInline
internal struct InnerSlots {
  @usableFromInline
  internal struct Slot {
    @usableFromInline
    var subscription: (any Subscription)?
    @usableFromInline
    var outstanding = Subscribers.Demand.none

    @inlinable
    init() {}
  }

  /// Slots whose upstreams are asked for one value at a time.
  @inlinable
  init() {}

  /// Slots whose upstream is asked for all the unused demand at once when `asksForAllUnused`.
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
  mutating func refill(_ id: Int, unused: Subscribers.Demand, into effects: inout RelayEffects) {
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
  ) -> RelayEffects {
    var effects = RelayEffects()
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
  mutating func received(_ id: Int, unused: Subscribers.Demand, isLive: Bool) -> RelayEffects? {
    guard isLive, consume(id) else { return nil }
    var effects = RelayEffects()
    refill(id, unused: unused - 1, into: &effects)
    return effects
  }

  /// ``refill(_:unused:into:)`` for every upstream for which `include` holds.
  @inlinable
  mutating func refillAll(
    unused: Subscribers.Demand, into effects: inout RelayEffects,
    where include: (Int) -> Bool = { _ in true }
  ) {
    guard unused > 0 else { return }
    for id in slots.keys.sorted() where include(id) {
      refill(id, unused: unused, into: &effects)
    }
  }
}

/// A stateful operator's subscription as seen by the subscribers it attaches to secondary
/// publishers: the inner publishers of `flatMap` and `switchToLatest`, the other publisher of
/// `withLatestFrom`, `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`.
@usableFromInline
internal protocol SecondaryOwner: AnyObject {
  associatedtype SecondaryOutput
  associatedtype SecondaryFailure: Error
  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription)
  @inlinable
  func secondary(_ id: Int, didSend value: SecondaryOutput)
  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<SecondaryFailure>)
}

/// The subscriber an operator attaches to secondary publisher `id`.
@usableFromInline
internal struct SecondaryLink<Owner: SecondaryOwner>: Subscriber {
  @usableFromInline
  typealias Input = Owner.SecondaryOutput
  @usableFromInline
  typealias Failure = Owner.SecondaryFailure

  @usableFromInline
  let owner: Owner
  @usableFromInline
  let id: Int

  @inlinable
  init(owner: Owner, id: Int) {
    self.owner = owner
    self.id = id
  }
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  func receive(subscription: any Subscription) {
    owner.secondary(id, didSubscribe: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    owner.secondary(id, didSend: input)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    owner.secondary(id, didComplete: completion)
  }
}
