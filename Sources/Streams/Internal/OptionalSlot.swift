/// An optional seen through a protocol, so that a generic class can take one as a generic
/// argument and still empty it (see `SingleValueSubscription` and `FilteringSubscriber`).
@usableFromInline
internal protocol OptionalSlot {
  associatedtype Wrapped

  /// The wrapped value, if any.
  var wrapped: Wrapped? { get }

  /// Returns the wrapped value, leaving nil in its place.
  mutating func take() -> Wrapped?
}

extension Optional: OptionalSlot {
  @inlinable
  var wrapped: Wrapped? { self }
}
