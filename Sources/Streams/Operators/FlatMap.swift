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
  /// See ``Publisher/flatMap(maxPublishers:_:)-ztve`` for the semantics.
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = FlatMapSubscription<Upstream.Output, NewPublisher, S>(
        downstream: subscriber, maxPublishers: maxPublishers, transform: transform)
      subscription.start()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The subscription of `flatMap`: the upstream's values are turned into inner publishers whose
/// values are merged, as demand allows.
@usableFromInline
internal final class FlatMapSubscription<
  Value, Inner: Publisher, Downstream: Subscriber
>: FlatteningSubscription<Downstream>, UpstreamOwner, SecondaryUpstreamOwner
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
  @usableFromInline
  override var operatorName: String { "FlatMap" }

  // Immutable configuration. Protected by the inherited `lock`: the id of the latest inner
  // publisher, the inner publisher of each value waiting in the delivery queue (oldest from
  // `queuedOriginsHead` on), and whether the value being delivered went straight through.
  @usableFromInline
  let maxPublishers: Subscribers.Demand
  @usableFromInline
  let transform: (Value) -> Inner
  @usableFromInline
  @exclusivity(unchecked) var lastInnerID = 0
  @usableFromInline
  @exclusivity(unchecked) var queuedOrigins: [Int] = []
  @usableFromInline
  @exclusivity(unchecked) var queuedOriginsHead = 0
  @usableFromInline
  @exclusivity(unchecked) var isDeliveringStraight = false

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
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    upstreamSubscribed(subscription, asking: maxPublishers)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Value) {
    let inner = transform(value)
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    lastInnerID += 1
    let innerID = lastInnerID
    merged.reserve(innerID)
    lock.unlock()
    inner.receive(subscriber: secondaryLink(innerID))
  }

  /// An inner publisher is asked for one value at first (for every value once the downstream
  /// asked for unlimited values), as Combine does.
  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard delivery.isOpen, merged.attach(id, subscription) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    let demand: Subscribers.Demand = delivery.demand == .unlimited ? .unlimited : .max(1)
    merged.asked(id, for: demand)
    lock.unlock()
    subscription.request(demand)
  }

  /// A value that goes straight to the downstream earns its inner publisher one more value (the
  /// demand returned here); one that waits for demand earns it when it is delivered.
  @inlinable
  func secondary(_ id: Int, didSend value: Inner.Output) -> Subscribers.Demand {
    lock.lock()
    guard delivery.isOpen, merged.consume(id) else {
      lock.unlock()
      return .none
    }
    let goesStraight =
      !delivery.isDelivering && delivery.bufferedCount == 0 && delivery.demand > 0
    var more = Subscribers.Demand.none
    if goesStraight {
      isDeliveringStraight = true
      if delivery.demand != .unlimited {
        more = .max(1)
        merged.asked(id, for: more)
      }
    } else {
      queuedOrigins.append(id)
    }
    sendAndUnlock(value)
    return more
  }

  @inlinable
  override func didDeliverValue(_ effects: inout DeferredEffects) {
    if isDeliveringStraight {
      isDeliveringStraight = false
      return
    }
    guard queuedOriginsHead < queuedOrigins.count else { return }
    let origin = queuedOrigins[queuedOriginsHead]
    queuedOriginsHead += 1
    if queuedOriginsHead == queuedOrigins.count {
      queuedOrigins.removeAll(keepingCapacity: true)
      queuedOriginsHead = 0
    }
    merged.askOneMore(origin, into: &effects)
  }

  /// Finite demand asks the inner publishers for nothing more (each value earns its own
  /// replacement); unlimited demand asks every one of them for unlimited values.
  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    if delivery.demand == .unlimited {
      merged.refillAll(unused: .unlimited, into: &effects)
    }
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    super.didCancel(&effects)
    queuedOrigins = []
    queuedOriginsHead = 0
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Inner.Failure>) {
    inner(id, didComplete: completion, asksForAnother: maxPublishers != .unlimited)
  }
}
