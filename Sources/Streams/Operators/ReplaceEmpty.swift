extension Publisher {
  /// Delivers `output` if the upstream finishes without producing any value; otherwise passes
  /// everything through. Failures are forwarded unchanged.
  ///
  /// The replacement is delivered only when the downstream has demand for it; if it has none when
  /// the upstream finishes, the replacement and `.finished` wait for its next request.
  ///
  /// Demand is Combine's: once the downstream has the subscription, the upstream is asked for
  /// unlimited values, and the downstream's requests are passed on as they are. Where Combine
  /// then hands the downstream values beyond its demand, these wait here until it asks for them;
  /// a failure is delivered as soon as the downstream is free, dropping the values still
  /// waiting.
  ///
  /// ```swift
  /// let cancellable = [Int]().publisher.replaceEmpty(with: 0).sink { print($0) }  // 0
  /// ```
  @inlinable
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that delivers a replacement value when its upstream finishes empty.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose emptiness is replaced.
    public let upstream: Upstream
    /// The value delivered if the upstream finishes without any value.
    public let output: Upstream.Output

    /// Creates a `ReplaceEmpty` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = ReplaceEmptySubscription(downstream: subscriber, replacement: output)
      subscription.start()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The subscription of `replaceEmpty(with:)`.
@usableFromInline
internal final class ReplaceEmptySubscription<Downstream: Subscriber>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "ReplaceEmpty" }

  // `replacement` is immutable. Protected by the inherited `lock`: the upstream, and whether it
  // published a value.
  @usableFromInline
  let replacement: Downstream.Input
  @usableFromInline
  @exclusivity(unchecked) var upstream = UpstreamState()
  @usableFromInline
  @exclusivity(unchecked) var hasPublished = false

  @inlinable
  init(downstream: Downstream, replacement: Downstream.Input) {
    self.replacement = replacement
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    let isAttached = lock.attachSubscription(subscription) {
      upstream.attach(subscription, isWanted: !delivery.isClosed)
    }
    if isAttached { subscription.request(.unlimited) }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    upstream.request(added, into: &effects)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    lock.lock()
    guard !upstream.isFinished else {
      lock.unlock()
      return
    }
    hasPublished = true
    sendAndUnlock(value)
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard !upstream.isFinished else {
      lock.unlock()
      return
    }
    _ = upstream.finish()
    if case .finished = completion, !hasPublished { delivery.push(replacement) }
    finishAndUnlock(completion)
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    effects.cancel(upstream.finish())
  }
}
