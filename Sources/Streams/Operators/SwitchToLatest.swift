extension Publisher where Output: Publisher, Output.Failure == Failure {
  /// Republishes the values of the most recent inner publisher, cancelling the previous one.
  ///
  /// Semantics (as Combine's): the upstream is asked for unlimited publishers; each new one
  /// cancels the current inner publisher (its later values are ignored); the result finishes when
  /// the upstream has finished and the current inner publisher (if any) has finished; any failure
  /// cancels the rest and is delivered.
  ///
  /// ```swift
  /// query.map { api.search($0) }.switchToLatest()
  /// ```
  @inlinable
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self> {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Failure == Never {
  /// `switchToLatest()` for an upstream that cannot fail and inner publishers that can: the
  /// upstream takes the inner publishers' failure type.
  @inlinable
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Output, Publishers.SetFailureType<Self, Output.Failure>
    >
  {
    Publishers.SwitchToLatest(upstream: Publishers.SetFailureType(upstream: self))
  }

  /// `switchToLatest()` when neither the upstream nor the inner publishers can fail.
  @inlinable
  public func switchToLatest() -> Publishers.SwitchToLatest<Output, Self>
  where Output.Failure == Never {
    Publishers.SwitchToLatest(upstream: self)
  }
}

extension Publisher where Output: Publisher, Output.Failure == Never {
  /// `switchToLatest()` for inner publishers that cannot fail: they take the upstream's failure
  /// type.
  @inlinable
  public func switchToLatest()
    -> Publishers.SwitchToLatest<
      Publishers.SetFailureType<Output, Failure>,
      Publishers.Map<Self, Publishers.SetFailureType<Output, Failure>>
    >
  {
    Publishers.SwitchToLatest(
      upstream: Publishers.Map(upstream: self) { Publishers.SetFailureType(upstream: $0) })
  }
}

extension Publishers {
  /// A publisher of the values of the latest publisher its upstream sent.
  ///
  /// See ``Publisher/switchToLatest()`` for the semantics.
  public struct SwitchToLatest<P: Publisher, Upstream: Publisher>: Publisher
  where Upstream.Output == P, P.Failure == Upstream.Failure {
    public typealias Output = P.Output
    public typealias Failure = P.Failure

    /// The publisher of publishers.
    public let upstream: Upstream

    /// The switch over `upstream`.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
      subscription.start()
      upstream.receive(subscriber: UpstreamLink(owner: subscription, index: 0))
    }
  }
}

/// The state of a switch: the upstream, the current inner publisher, what has finished.
@usableFromInline
internal struct SwitchToLatestState {
  @usableFromInline
  var upstream: (any Subscription)?
  @usableFromInline
  var inners = InnerSlots(asksForAllUnused: true)
  @usableFromInline
  var currentID = 0
  @usableFromInline
  var isUpstreamFinished = false
  @usableFromInline
  var isDone = false

  /// Switches to a new inner publisher: its id and the previous one's subscription to cancel.
  @inlinable
  mutating func switchInner() -> (id: Int, previous: (any Subscription)?)? {
    guard !isDone else { return nil }
    let previous = inners.remove(currentID)
    currentID += 1
    inners.reserve(currentID)
    return (currentID, previous)
  }

  @usableFromInline
  internal enum Ending<Failure: Error> {
    case none
    case finish
    case fail(Failure, cancelling: [any Subscription])
  }

  @inlinable
  mutating func innerCompleted<Failure>(
    _ id: Int, with completion: Subscribers.Completion<Failure>
  ) -> Ending<Failure> {
    guard !isDone, id == currentID, inners.contains(id) else { return .none }
    _ = inners.remove(id)
    if case .failure(let error) = completion { return fail(error) }
    guard isUpstreamFinished else { return .none }
    isDone = true
    return .finish
  }

  @inlinable
  mutating func upstreamCompleted<Failure>(
    with completion: Subscribers.Completion<Failure>
  ) -> Ending<Failure> {
    guard !isDone else { return .none }
    upstream = nil
    if case .failure(let error) = completion { return fail(error) }
    isUpstreamFinished = true
    guard inners.isEmpty else { return .none }
    isDone = true
    return .finish
  }

  @inlinable
  mutating func fail<Failure>(_ error: Failure) -> Ending<Failure> {
    .fail(error, cancelling: end())
  }

  @inlinable
  mutating func end() -> [any Subscription] {
    isDone = true
    var cancelling = inners.removeAll()
    if let upstream { cancelling.append(upstream) }
    upstream = nil
    return cancelling
  }
}

@usableFromInline
internal final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>:
  RelaySubscription<Downstream>, UpstreamOwner, SecondaryOwner, @unchecked Sendable
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
  @usableFromInline
  override var operatorName: String { "SwitchToLatest" }

  @usableFromInline
  typealias UpstreamOutput = Inner
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure
  @usableFromInline
  typealias SecondaryOutput = Inner.Output
  @usableFromInline
  typealias SecondaryFailure = Inner.Failure

  // Protected by the inherited `lock`.
  @usableFromInline
  var state = SwitchToLatestState()

  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard !isEnded, !state.isDone, state.upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    state.upstream = subscription
    lock.unlock()
    subscription.request(.unlimited)
  }

  @inlinable
  func upstream(_ index: Int, didSend inner: Inner) {
    lock.lock()
    let switched = state.switchInner()
    lock.unlock()
    guard let switched else { return }
    switched.previous?.cancel()
    inner.receive(subscriber: SecondaryLink(owner: self, id: switched.id))
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    apply(state.upstreamCompleted(with: completion))
  }

  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    let isLive = !isEnded && !state.isDone
    let effects = state.inners.subscribed(
      id, subscription, unused: outlet.unusedDemand, isLive: isLive)
    lock.unlock()
    effects.perform()
  }

  @inlinable
  func secondary(_ id: Int, didSend value: Inner.Output) {
    lock.lock()
    let isLive = !state.isDone
    guard
      let effects = state.inners.received(id, unused: outlet.unusedDemand, isLive: isLive)
    else {
      lock.unlock()
      return
    }
    emitAndUnlock(value, effects: effects)
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Inner.Failure>) {
    lock.lock()
    apply(state.innerCompleted(id, with: completion))
  }

  /// Applies an ending; called with the lock held, returns with it released.
  @inlinable
  func apply(_ ending: SwitchToLatestState.Ending<Downstream.Failure>) {
    switch ending {
    case .none:
      lock.unlock()
    case .finish:
      outlet.finish(.finished)
      lock.unlock()
      drain()
    case .fail(let error, let others):
      outlet.finish(.failure(error))
      lock.unlock()
      for other in others { other.cancel() }
      drain()
    }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout RelayEffects) {
    state.inners.refillAll(unused: outlet.unusedDemand, into: &effects)
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    for subscription in state.end() { effects.cancel(subscription) }
  }
}
