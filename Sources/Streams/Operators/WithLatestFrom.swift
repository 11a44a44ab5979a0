extension Publisher {
  /// Publishes, for each value, the latest value of `other` combined with it by
  /// `resultSelector`.
  ///
  /// Semantics: only this publisher's values trigger output; a value arriving before `other` has
  /// published is dropped (and replaced by a request for one more, so demand is not lost);
  /// `other` is asked for unlimited values and its finish is ignored (its latest value stays in
  /// use); the result finishes when this publisher finishes; a failure of either is delivered
  /// and cancels the other.
  ///
  /// ```swift
  /// submitTaps.withLatestFrom(formState) { _, form in form }
  /// ```
  @inlinable
  public func withLatestFrom<Other: Publisher, Result>(
    _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
  }

  /// Publishes, for each value, the latest value of `other`; see
  /// ``withLatestFrom(_:resultSelector:)``.
  @inlinable
  public func withLatestFrom<Other: Publisher>(
    _ other: Other
  ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, other: other) { $1 }
  }
}

extension Publishers {
  /// A publisher combining each upstream value with another publisher's latest value.
  ///
  /// See ``Publisher/withLatestFrom(_:resultSelector:)`` for the semantics.
  public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values trigger output.
    public let upstream: Upstream
    /// The publisher whose latest value is used.
    public let other: Other
    /// Combines an upstream value with the other's latest value.
    public let resultSelector: (Upstream.Output, Other.Output) -> Output

    /// `upstream` combined with the latest value of `other`.
    @inlinable
    public init(
      upstream: Upstream, other: Other,
      resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
    ) {
      self.upstream = upstream
      self.other = other
      self.resultSelector = resultSelector
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      WithLatestFromSubscription<Upstream.Output, Other, S>(
        downstream: subscriber, select: resultSelector
      )
      .subscribe(upstream, other: other)
    }
  }
}

/// The subscription of `withLatestFrom`.
///
/// Demand passes through to the upstream; a value that arrives before the other publisher has
/// published is swallowed and replaced by a request for one more. `select` combines an upstream
/// value with the other's latest value; it is user code and is called without the lock.
@usableFromInline
internal final class WithLatestFromSubscription<Value, Other: Publisher, Downstream: Subscriber>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner, SecondaryUpstreamOwner
where Other.Failure == Downstream.Failure {
  @usableFromInline
  override var operatorName: String { "WithLatestFrom" }

  // `select` is immutable. Protected by the inherited `lock`: the upstream, the other publisher,
  // and the other's latest value.
  @usableFromInline
  let select: (Value, Other.Output) -> Downstream.Input
  @usableFromInline
  @exclusivity(unchecked) var upstream = UpstreamState()
  @usableFromInline
  @exclusivity(unchecked) var other = UpstreamState()
  @usableFromInline
  @exclusivity(unchecked) var latest: Other.Output?

  @inlinable
  init(downstream: Downstream, select: @escaping (Value, Other.Output) -> Downstream.Input) {
    self.select = select
    super.init(downstream: downstream)
  }

  /// Subscribes to `other`, then to `upstream`.
  @inlinable
  func subscribe<Upstream: Publisher>(_ upstream: Upstream, other: Other)
  where Upstream.Output == Value, Upstream.Failure == Downstream.Failure {
    start()
    other.receive(subscriber: secondaryLink(0))
    upstream.receive(subscriber: link(0))
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription) {
      upstream.attach(subscription, isWanted: delivery.isOpen)
    }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    upstream.request(added, into: &effects)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Value) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    guard let latest else {
      let subscription = upstream.subscription
      lock.unlock()
      subscription?.request(.max(1))
      return
    }
    lock.unlock()
    let output = select(value, latest)
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    sendAndUnlock(output)
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    _ = upstream.finish()
    var effects = DeferredEffects()
    end(&effects)
    finishAndUnlock(completion, effects: effects)
  }

  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription, asking: .unlimited) {
      other.attach(subscription, isWanted: delivery.isOpen)
    }
  }

  @inlinable
  func secondary(_ id: Int, didSend value: Other.Output) -> Subscribers.Demand {
    lock.lock()
    if delivery.isOpen { latest = value }
    lock.unlock()
    return .none
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Other.Failure>) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    _ = other.finish()
    guard case .failure(let error) = completion else {
      lock.unlock()
      return
    }
    var effects = DeferredEffects()
    end(&effects)
    finishAndUnlock(.failure(error), effects: effects)
  }

  /// Cancels the upstream and the other publisher, releases the latest value. Lock held.
  @inlinable
  func end(_ effects: inout DeferredEffects) {
    effects.cancel(upstream.finish())
    effects.cancel(other.finish())
    effects.release(latest)
    latest = nil
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    end(&effects)
  }
}
