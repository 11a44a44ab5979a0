/// What a stateless operator (`map`, `filter`, `mapError`, `ignoreOutput`, ...) makes of one
/// upstream value and of the upstream's completion.
///
/// It holds only the operator's immutable parameters, so the operator needs no lock: every call
/// comes from the upstream's serialised calls, and demand and cancellation pass straight through.
@usableFromInline
internal protocol StatelessLogic {
  associatedtype Input
  associatedtype Output
  associatedtype UpstreamFailure: Error
  associatedtype Failure: Error

  /// The operator's name, such as `"Map"`.
  var operatorName: String { get }

  /// Whether the operator asks its upstream for unlimited values as soon as it subscribes, whatever
  /// the downstream's demand (`ignoreOutput()`, which never delivers a value); false by default.
  var requestsUnlimitedUpstream: Bool { get }

  /// Hands `input` to `downstream`, or drops it, and returns the demand to add upstream; passes
  /// it on as it is by default, where the operator keeps the upstream's output type.
  func receive<Downstream: Subscriber>(
    _ input: Input, into downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure

  /// The completion the downstream receives for the upstream's `completion`.
  func completion(
    _ completion: Subscribers.Completion<UpstreamFailure>
  ) -> Subscribers.Completion<Failure>
}

extension StatelessLogic {
  @inlinable
  var requestsUnlimitedUpstream: Bool { false }
}

extension StatelessLogic where Input == Output {
  @inlinable
  func receive<Downstream: Subscriber>(
    _ input: Input, into downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    downstream.receive(input)
  }
}

extension StatelessLogic where UpstreamFailure == Failure {
  @inlinable
  func completion(_ completion: Subscribers.Completion<Failure>) -> Subscribers.Completion<Failure>
  {
    completion
  }
}

/// The subscriber every stateless operator puts between its upstream and its downstream: the
/// upstream's subscription goes to the downstream as it is, and `logic` turns values and the
/// completion into the downstream's.
@usableFromInline
internal struct StatelessSubscriber<Logic: StatelessLogic, Downstream: Subscriber>: Subscriber,
  OperatorNamed
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline typealias Input = Logic.Input
  @usableFromInline typealias Failure = Logic.UpstreamFailure

  @usableFromInline let logic: Logic
  @usableFromInline let downstream: Downstream
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @usableFromInline
  var operatorName: String { logic.operatorName }

  @inlinable
  init(logic: Logic, downstream: Downstream) {
    self.logic = logic
    self.downstream = downstream
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
    if logic.requestsUnlimitedUpstream { subscription.request(.unlimited) }
  }

  @inlinable
  func receive(_ input: Logic.Input) -> Subscribers.Demand {
    logic.receive(input, into: downstream)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
    downstream.receive(completion: logic.completion(completion))
  }
}
