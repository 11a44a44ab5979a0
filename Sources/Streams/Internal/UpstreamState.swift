/// Where a stateful operator stands with its single upstream.
@usableFromInline
internal enum UpstreamState {
  /// The subscription has not arrived yet; the demand to ask it for once it does.
  case awaiting(Subscribers.Demand)
  /// Values flow from this subscription.
  case subscribed(any Subscription)
  /// The upstream completed or was cancelled; later events from it are ignored.
  case finished

  @inlinable
  init() {
    self = .awaiting(.none)
  }

  @inlinable
  var isFinished: Bool {
    if case .finished = self { return true }
    return false
  }

  @inlinable
  var subscription: (any Subscription)? {
    if case .subscribed(let subscription) = self { return subscription }
    return nil
  }

  /// Takes `subscription` if it is the first and the operator still wants it (`isWanted`);
  /// returns the demand waiting for it, or nil when the caller must cancel `subscription`.
  @inlinable
  mutating func attach(_ subscription: any Subscription, isWanted: Bool = true)
    -> Subscribers.Demand?
  {
    guard isWanted, case .awaiting(let demand) = self else { return nil }
    self = .subscribed(subscription)
    return demand
  }

  /// Asks the upstream for `demand` more values, or keeps it for the subscription to come.
  @inlinable
  mutating func request(_ demand: Subscribers.Demand, into effects: inout DeferredEffects) {
    switch self {
    case .awaiting(let waiting):
      self = .awaiting(waiting + demand)
    case .subscribed(let subscription):
      effects.request(demand, from: subscription)
    case .finished:
      break
    }
  }

  /// Marks the upstream finished; returns its subscription, to cancel or release after
  /// unlocking.
  @inlinable
  mutating func finish() -> (any Subscription)? {
    defer { self = .finished }
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
