/// The upstream subscriptions of a combining operator and the demand each one still owes.
///
/// With finite downstream demand each upstream is asked for one value at a time, so at most one
/// value per upstream waits in the outlet; with unlimited demand each is asked once for
/// `.unlimited`.
internal struct InnerSlots {
  struct Slot {
    var subscription: (any Subscription)?
    var outstanding = Subscribers.Demand.none
  }

  private(set) var slots: [Int: Slot] = [:]

  var isEmpty: Bool { slots.isEmpty }
  var count: Int { slots.count }

  func contains(_ id: Int) -> Bool { slots[id] != nil }

  /// Makes room for an upstream whose subscription has not arrived yet.
  mutating func reserve(_ id: Int) {
    slots[id] = Slot()
  }

  /// Stores the subscription of upstream `id`; false when that upstream is no longer wanted.
  mutating func attach(_ id: Int, _ subscription: any Subscription) -> Bool {
    guard slots[id] != nil, slots[id]?.subscription == nil else { return false }
    slots[id]?.subscription = subscription
    return true
  }

  /// Records a value from upstream `id`; false when that upstream is no longer wanted.
  mutating func consume(_ id: Int) -> Bool {
    guard let slot = slots[id] else { return false }
    if slot.outstanding != .unlimited { slots[id]?.outstanding = slot.outstanding - 1 }
    return true
  }

  mutating func remove(_ id: Int) -> (any Subscription)? {
    slots.removeValue(forKey: id)?.subscription
  }

  mutating func removeAll() -> [any Subscription] {
    defer { slots = [:] }
    return slots.values.compactMap(\.subscription)
  }

  /// Asks upstream `id` for a value if it owes none and the downstream has `unused` demand.
  mutating func refill(_ id: Int, unused: Subscribers.Demand, into effects: inout RelayEffects) {
    guard let slot = slots[id], let subscription = slot.subscription, unused > 0 else { return }
    if unused == .unlimited {
      guard slot.outstanding != .unlimited else { return }
      slots[id]?.outstanding = .unlimited
      effects.request(.unlimited, from: subscription)
    } else if slot.outstanding == .none {
      slots[id]?.outstanding = .max(1)
      effects.request(.max(1), from: subscription)
    }
  }

  /// ``refill(_:unused:into:)`` for every upstream for which `include` holds.
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
internal protocol SecondaryOwner: AnyObject {
  associatedtype SecondaryOutput
  associatedtype SecondaryFailure: Error
  func secondary(_ id: Int, didSubscribe subscription: any Subscription)
  func secondary(_ id: Int, didSend value: SecondaryOutput)
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<SecondaryFailure>)
}

/// The subscriber an operator attaches to secondary publisher `id`.
internal struct SecondaryLink<Owner: SecondaryOwner>: Subscriber {
  typealias Input = Owner.SecondaryOutput
  typealias Failure = Owner.SecondaryFailure

  let owner: Owner
  let id: Int
  let combineIdentifier = CombineIdentifier()

  func receive(subscription: any Subscription) {
    owner.secondary(id, didSubscribe: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    owner.secondary(id, didSend: input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    owner.secondary(id, didComplete: completion)
  }
}
