/// The upstream subscription a subscriber holds: the subscription itself, or the empty
/// subscription while there is none (before it arrives, and once it was released).
///
/// A non-optional existential rather than `(any Subscription)?`: copying, releasing or testing an
/// optional of an existential goes through the optional's run-time metadata and value witnesses,
/// three indirect calls each time, which every level of a chain paid when it was set up, cancelled
/// and deallocated. The holder keeps its own record of whether a subscription is held.
@usableFromInline
internal struct HeldSubscription {
  @usableFromInline
  var subscription: any Subscription = EmptySubscription.shared

  @inlinable
  init() {}

  /// Holds `subscription`; only called while nothing is held. It is written over the empty
  /// subscription, which has nothing to release, instead of assigned: an assignment of an
  /// existential is a generic run-time call that first compares the two values' types.
  @inlinable
  mutating func hold(_ subscription: any Subscription) {
    withUnsafeMutablePointer(to: &self.subscription) { slot in
      slot.initialize(to: subscription)
    }
  }

  /// Moves the held subscription out, leaving the empty subscription in its place: one move of
  /// the existential rather than the three a `swap` makes.
  @inlinable
  mutating func take() -> any Subscription {
    withUnsafeMutablePointer(to: &subscription) { slot in
      let taken = slot.move()
      slot.initialize(to: EmptySubscription.shared)
      return taken
    }
  }
}
