/// What a stateless operator does with each event on its way downstream: a value, the
/// completion, and (rarely) the subscription.
///
/// The defaults pass an event on unchanged where the types allow it, so each operator writes only
/// the event it changes.
@usableFromInline
internal protocol ForwardingLogic {
  associatedtype Input
  associatedtype UpstreamFailure: Error
  associatedtype Output
  associatedtype Failure: Error

  /// The operator's name, for ``OperatorNamed``.
  static var operatorName: String { get }

  /// Hands the upstream's subscription to `downstream`.
  func forward<Downstream: Subscriber>(subscription: any Subscription, to downstream: Downstream)

  /// Passes `input` on (or not) and returns the demand for the upstream.
  func forward<Downstream: Subscriber>(
    _ input: Input, to downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure

  /// Passes the upstream's completion on.
  func forward<Downstream: Subscriber>(
    completion: Subscribers.Completion<UpstreamFailure>, to downstream: Downstream
  ) where Downstream.Input == Output, Downstream.Failure == Failure
}

extension ForwardingLogic {
  @inlinable
  func forward<Downstream: Subscriber>(subscription: any Subscription, to downstream: Downstream) {
    downstream.receive(subscription: subscription)
  }
}

extension ForwardingLogic where Input == Output {
  @inlinable
  func forward<Downstream: Subscriber>(
    _ input: Input, to downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    downstream.receive(input)
  }
}

extension ForwardingLogic where UpstreamFailure == Failure {
  @inlinable
  func forward<Downstream: Subscriber>(
    completion: Subscribers.Completion<UpstreamFailure>, to downstream: Downstream
  ) where Downstream.Input == Output, Downstream.Failure == Failure {
    downstream.receive(completion: completion)
  }
}

/// The subscriber of the stateless operators (`map`, `filter`, `compactMap`, `ignoreOutput`,
/// `mapError`, `setFailureType`, `assertNoFailure`): it keeps no state of its own and hands each
/// event to its ``ForwardingLogic``, which passes it on.
///
/// Generic over the logic (whose type names the operator's input, never its upstream publisher)
/// rather than nested in the public publisher type, whose upstream grows with every operator
/// before it: the optimiser stops specialising a call that reaches the same generic function with
/// a larger type argument, so a subscriber that carried its upstream's type would leave a chain
/// such as `map`, `filter`, `map` unspecialised.
@usableFromInline
internal struct ForwardingSubscriber<Logic: ForwardingLogic, Downstream: Subscriber>: Subscriber,
  OperatorNamed
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline
  typealias Input = Logic.Input
  @usableFromInline
  typealias Failure = Logic.UpstreamFailure

  @usableFromInline
  var operatorName: String { Logic.operatorName }

  @usableFromInline let downstream: Downstream
  @usableFromInline let logic: Logic
  @usableFromInline let combineIdentifier: CombineIdentifier

  @inlinable
  init(downstream: Downstream, logic: Logic) {
    self.downstream = downstream
    self.logic = logic
    // Assigned here rather than as the property's initial value, which is a function of this
    // module that every subscriber would call.
    combineIdentifier = CombineIdentifier()
  }

  @inlinable
  func receive(subscription: any Subscription) {
    logic.forward(subscription: subscription, to: downstream)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    logic.forward(input, to: downstream)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    logic.forward(completion: completion, to: downstream)
  }
}

extension Publisher {
  /// Subscribes `downstream` through a ``ForwardingSubscriber`` running `logic`.
  @inlinable @inline(__always)
  internal func forward<Logic: ForwardingLogic, Downstream: Subscriber>(
    to downstream: Downstream, through logic: Logic
  )
  where
    Logic.Input == Output, Logic.UpstreamFailure == Failure, Downstream.Input == Logic.Output,
    Downstream.Failure == Logic.Failure
  {
    receive(subscriber: ForwardingSubscriber(downstream: downstream, logic: logic))
  }
}
