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
  /// See ``Publisher/switchToLatest()-7j10o`` for the semantics.
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = SwitchToLatestSubscription<P, S>(downstream: subscriber)
      subscription.start()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The subscription of `switchToLatest`: the values of the latest inner publisher, the previous
/// one cancelled.
@usableFromInline
internal final class SwitchToLatestSubscription<Inner: Publisher, Downstream: Subscriber>:
  FlatteningSubscription<Downstream>, UpstreamOwner, SecondaryUpstreamOwner
where Inner.Output == Downstream.Input, Inner.Failure == Downstream.Failure {
  @usableFromInline
  override var operatorName: String { "SwitchToLatest" }

  // Protected by the inherited `lock`: the id of the current inner publisher (the
  // only one in `merged`, which asks it for all the unused demand).
  @usableFromInline
  @exclusivity(unchecked) var currentID = 0

  @inlinable
  init(downstream: Downstream) {
    super.init(downstream: downstream, merged: UpstreamPool(asksForAllUnused: true))
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    upstreamSubscribed(subscription, asking: .unlimited)
  }

  @inlinable
  func upstream(_ id: Int, didSend inner: Inner) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    let previous = merged.remove(currentID)
    currentID += 1
    let innerID = currentID
    merged.reserve(innerID)
    lock.unlock()
    previous?.cancel()
    inner.receive(subscriber: secondaryLink(innerID))
  }

  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    merged(id, didSubscribe: subscription)
  }

  @inlinable
  func secondary(_ id: Int, didSend value: Inner.Output) -> Subscribers.Demand {
    merged(id, didSend: value)
    return .none
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Inner.Failure>) {
    inner(id, didComplete: completion, asksForAnother: false)
  }
}
