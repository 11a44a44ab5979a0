/// A subscription's downstream, boxed once when the subscription is made, so that lending it to
/// the delivering thread moves one reference instead of the whole subscriber.
///
/// A chain of operator subscribers is a nest of structs (hundreds of bytes for a few operators);
/// moving it out of its subscription and back on every value cost a sixth of a value's delivery
/// through six maps and filters. The subscriber is an immutable stored property of the box, so
/// calls borrow it in place, without copying it (which would retain every closure in it).
@usableFromInline
package final class DownstreamBox<Downstream: Subscriber> {
  /// The subscriber.
  @usableFromInline
  package let subscriber: Downstream

  @inlinable
  package init(_ subscriber: consuming Downstream) {
    self.subscriber = consume subscriber
  }
}
