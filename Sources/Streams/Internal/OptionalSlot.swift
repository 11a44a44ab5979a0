/// An optional seen through a protocol, so that a generic class can take one as a generic
/// argument and still empty it (see `SingleValueSubscription`).
@usableFromInline
internal protocol OptionalSlot {
  associatedtype Wrapped

  /// Returns the wrapped value, leaving nil in its place.
  mutating func take() -> Wrapped?
}

extension Optional: OptionalSlot {}
