extension Publisher {
  /// Turns each value into a publisher and merges the values of those publishers.
  ///
  /// Semantics (as Combine's): at most `maxPublishers` inner publishers run at once — the
  /// upstream is asked for that many values at subscription and for one more each time an inner
  /// publisher finishes; the result finishes when the upstream and every inner publisher have
  /// finished; any failure (upstream or inner) cancels everything else and is delivered.
  /// With finite demand each inner publisher is asked for one value at a time.
  ///
  /// ```swift
  /// userIDs.flatMap(maxPublishers: .max(4)) { api.user(id: $0) }
  /// ```
  ///
  /// - Parameters:
  ///   - maxPublishers: the most inner publishers subscribed at once.
  ///   - transform: makes the inner publisher for a value.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Failure {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher where Failure == Never {
  /// `flatMap(maxPublishers:_:)` for an upstream that cannot fail and inner publishers that can:
  /// the upstream takes the inner publishers' failure type.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Publishers.SetFailureType<Self, P.Failure>> {
    Publishers.FlatMap(
      upstream: Publishers.SetFailureType(upstream: self), maxPublishers: maxPublishers,
      transform: transform)
  }

  /// `flatMap(maxPublishers:_:)` when neither the upstream nor the inner publishers can fail.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<P, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers, transform: transform)
  }
}

extension Publisher {
  /// `flatMap(maxPublishers:_:)` for inner publishers that cannot fail: they take the upstream's
  /// failure type.
  @inlinable
  public func flatMap<P: Publisher>(
    maxPublishers: Subscribers.Demand = .unlimited, _ transform: @escaping (Output) -> P
  ) -> Publishers.FlatMap<Publishers.SetFailureType<P, Failure>, Self> where P.Failure == Never {
    Publishers.FlatMap(upstream: self, maxPublishers: maxPublishers) {
      Publishers.SetFailureType(upstream: transform($0))
    }
  }
}

extension Publishers {
  /// A publisher merging the publishers its upstream's values are turned into.
  ///
  /// See ``Publisher/flatMap(maxPublishers:_:)`` for the semantics.
  public struct FlatMap<NewPublisher: Publisher, Upstream: Publisher>: Publisher
  where NewPublisher.Failure == Upstream.Failure {
    public typealias Output = NewPublisher.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The most inner publishers subscribed at once.
    public let maxPublishers: Subscribers.Demand
    /// Makes the inner publisher for a value.
    public let transform: (Upstream.Output) -> NewPublisher

    /// A flat map of `upstream`.
    @inlinable
    public init(
      upstream: Upstream, maxPublishers: Subscribers.Demand,
      transform: @escaping (Upstream.Output) -> NewPublisher
    ) {
      self.upstream = upstream
      self.maxPublishers = maxPublishers
      self.transform = transform
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
        downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
      subscription.start()
      upstream.receive(subscriber: UpstreamLink(owner: subscription, index: 0))
    }
  }
}

/// The state of a flat map: the upstream, the running inner publishers, what has finished.
@usableFromInline
internal struct FlatMapState {
  @usableFromInline
  var upstream: (any Subscription)?
  @usableFromInline
  var inners = InnerSlots()
  @usableFromInline
  var nextID = 0
  @usableFromInline
  var isUpstreamFinished = false
  @usableFromInline
  var isDone = false

  /// Registers a new inner publisher; its id, or nil once done.
  @inlinable
  mutating func addInner() -> Int? {
    guard !isDone else { return nil }
    nextID += 1
    inners.reserve(nextID)
    return nextID
  }

  @usableFromInline
  internal enum Ending<Failure: Error> {
    case none
    case requestMore(any Subscription)
    case finish
    case fail(Failure, cancelling: [any Subscription])
  }

  @inlinable
  mutating func innerCompleted<Failure>(
    _ id: Int, with completion: Subscribers.Completion<Failure>, refills: Bool
  ) -> Ending<Failure> {
    guard !isDone, inners.contains(id) else { return .none }
    _ = inners.remove(id)
    if case .failure(let error) = completion { return fail(error) }
    if isUpstreamFinished && inners.isEmpty {
      isDone = true
      return .finish
    }
    if refills, let upstream { return .requestMore(upstream) }
    return .none
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
    isDone = true
    var cancelling = inners.removeAll()
    if let upstream { cancelling.append(upstream) }
    upstream = nil
    return .fail(error, cancelling: cancelling)
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
internal final class FlatMapSubscription<
  Value, Inner: Publisher, Downstream: Subscriber
>: RelaySubscription<Downstream>, UpstreamOwner, SecondaryOwner, @unchecked Sendable
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
  @usableFromInline
  override var operatorName: String { "FlatMap" }

  @usableFromInline
  typealias UpstreamOutput = Value
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure
  @usableFromInline
  typealias SecondaryOutput = Inner.Output
  @usableFromInline
  typealias SecondaryFailure = Inner.Failure

  // Immutable configuration; `state` is protected by the inherited `lock`.
  @usableFromInline
  let maxPublishers: Subscribers.Demand
  @usableFromInline
  let transform: (Value) -> Inner
  @usableFromInline
  var state = FlatMapState()

  @inlinable
  init(
    downstream: Downstream, maxPublishers: Subscribers.Demand,
    transform: @escaping (Value) -> Inner
  ) {
    self.maxPublishers = maxPublishers
    self.transform = transform
    super.init(downstream: downstream)
  }

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
    subscription.request(maxPublishers)
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Value) {
    let inner = transform(value)
    lock.lock()
    let id = state.addInner()
    lock.unlock()
    guard let id else { return }
    inner.receive(subscriber: SecondaryLink(owner: self, id: id))
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
    apply(state.innerCompleted(id, with: completion, refills: maxPublishers != .unlimited))
  }

  /// Applies an ending; called with the lock held, returns with it released.
  @inlinable
  func apply(_ ending: FlatMapState.Ending<Downstream.Failure>) {
    switch ending {
    case .none:
      lock.unlock()
    case .requestMore(let upstream):
      lock.unlock()
      upstream.request(.max(1))
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
