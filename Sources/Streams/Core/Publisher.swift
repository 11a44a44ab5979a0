/// A type that can deliver a sequence of values over time to subscribers.
///
/// A publisher delivers values only as far as its subscriber's demand allows, then at most one
/// completion, and nothing after a completion or after its subscription was cancelled.
public protocol Publisher<Output, Failure> {
  /// The kind of values this publisher delivers.
  associatedtype Output
  /// The kind of error this publisher may fail with; `Never` when it cannot fail.
  associatedtype Failure: Error

  /// Attaches a subscriber: the publisher calls its `receive(subscription:)` once, then delivers.
  ///
  /// Operators implement this; users call ``Publisher/subscribe(_:)->()``.
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure
}

extension Publisher {
  /// Attaches `subscriber` to this publisher.
  ///
  /// Operators inside this module call `upstream.receive(subscriber:)` directly instead: the
  /// optimiser stops specialising a generic function that recurs on one call chain with ever
  /// larger type arguments (it accepts one such cycle), and a chain whose operators all went
  /// through this one method would make it recur once per operator, leaving the rest of the
  /// chain unspecialised.
  @inlinable
  public func subscribe<S: Subscriber>(_ subscriber: S)
  where S.Input == Output, S.Failure == Failure {
    receive(subscriber: subscriber)
  }
}
