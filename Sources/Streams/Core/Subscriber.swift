/// A type that receives values and a completion from a publisher.
///
/// The publisher calls `receive(subscription:)` once; the subscriber asks for values with
/// `Subscription.request(_:)` and from the demand it returns from `receive(_:)`.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
  /// The kind of values this subscriber receives.
  associatedtype Input
  /// The kind of error this subscriber may receive.
  associatedtype Failure: Error

  /// Tells the subscriber it is attached, with the subscription it requests values from.
  func receive(subscription: any Subscription)

  /// Delivers one value; returns how many more values the subscriber wants on top of its
  /// outstanding demand.
  func receive(_ input: Input) -> Subscribers.Demand

  /// Tells the subscriber the stream ended; nothing is delivered after this.
  func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
  /// Delivers a `Void` value.
  @inlinable
  public func receive() -> Subscribers.Demand {
    receive(())
  }
}
