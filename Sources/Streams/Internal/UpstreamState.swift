/// Where a stateful operator stands with its single upstream.
///
/// A struct with a trivial phase rather than an enum carrying the subscription: testing the
/// phase of an enum whose payload is an existential copies and destroys the payload, a cost
/// every value paid in the operators that check ``isFinished``.
@usableFromInline
internal struct UpstreamState {
  @usableFromInline
  enum Phase {
    /// The subscription has not arrived yet.
    case awaiting
    /// Values flow from ``subscription``.
    case subscribed
    /// The upstream completed or was cancelled; later events from it are ignored.
    case finished
  }

  @usableFromInline
  var phase = Phase.awaiting
  /// While awaiting: the demand to ask the subscription for once it arrives.
  @usableFromInline
  var waitingDemand = Subscribers.Demand.none
  /// While subscribed: the subscription values flow from; nil in the other phases.
  @usableFromInline
  private(set) var subscription: (any Subscription)?

  @inlinable
  init() {}

  @inlinable
  var isFinished: Bool { phase == .finished }

  /// Takes `subscription` if it is the first and the operator still wants it (`isWanted`);
  /// returns the demand waiting for it, or nil when the caller must cancel `subscription`.
  @inlinable
  mutating func attach(_ subscription: any Subscription, isWanted: Bool = true)
    -> Subscribers.Demand?
  {
    guard isWanted, phase == .awaiting else { return nil }
    phase = .subscribed
    self.subscription = subscription
    defer { waitingDemand = .none }
    return waitingDemand
  }

  /// Asks the upstream for `demand` more values, or keeps it for the subscription to come.
  @inlinable
  mutating func request(_ demand: Subscribers.Demand, into effects: inout DeferredEffects) {
    switch phase {
    case .awaiting:
      waitingDemand += demand
    case .subscribed:
      if let subscription { effects.request(demand, from: subscription) }
    case .finished:
      break
    }
  }

  /// Marks the upstream finished; returns its subscription, to cancel or release after
  /// unlocking.
  @inlinable
  mutating func finish() -> (any Subscription)? {
    phase = .finished
    waitingDemand = .none
    defer { subscription = nil }
    return subscription
  }
}

extension StreamsLock {
  /// Hands `subscription` to an operator's upstream state: `attach` runs under this lock and
  /// returns the demand waiting for the subscription, or nil when the operator does not want it
  /// (it is not the first, or the operator ended). Then, with the lock released, `subscription` is
  /// cancelled, or asked for `fixedDemand`, or, when that is nil, for the waiting demand if any.
  ///
  /// - Returns: whether the operator took `subscription`.
  @inlinable
  @discardableResult
  func attachSubscription(
    _ subscription: any Subscription, asking fixedDemand: Subscribers.Demand? = nil,
    to attach: () -> Subscribers.Demand?
  ) -> Bool {
    guard let waiting = withLock(attach) else {
      subscription.cancel()
      return false
    }
    if let fixedDemand {
      subscription.request(fixedDemand)
    } else if waiting > 0 {
      subscription.request(waiting)
    }
    return true
  }
}
