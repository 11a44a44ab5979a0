extension Publisher {
  /// Replaces a failure with `output` followed by `.finished`; values pass through. The resulting
  /// publisher cannot fail.
  ///
  /// The replacement is delivered only when the downstream has demand for it; if it has none when
  /// the upstream fails, the replacement and `.finished` wait for its next request.
  ///
  /// ```swift
  /// let safe = fetchCount().replaceError(with: 0)
  /// ```
  @inlinable
  public consuming func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces its upstream's failure with a value and `.finished`.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never

    /// The publisher whose failure is replaced.
    public let upstream: Upstream
    /// The value delivered in place of a failure.
    public let output: Upstream.Output

    /// Creates a `ReplaceError` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber: ReplaceErrorSubscription<Upstream.Failure, S>(
          downstream: subscriber, replacement: output))
    }
  }
}

/// Where a ``ReplaceErrorSubscription`` stands. A type of its own rather than one nested in the
/// generic class, so that releasing the subscription (in code not specialised for it) needs no
/// run-time metadata for it.
@usableFromInline
internal enum ReplaceErrorStatus {
  case awaitingSubscription
  case subscribed(any Subscription)
  case awaitingDemand
  case delivering
  case terminated
}

/// The subscriber and subscription of `replaceError(with:)`: values pass through, and a failure is
/// replaced by a value followed by `.finished`.
///
/// It counts the downstream's outstanding demand so that the replacement value is delivered only
/// when demanded: if the downstream has none when the upstream fails, the replacement waits for
/// the next request. The lock guards state only and is released before calling out. Its
/// downstream reaches `request` and `cancel` through the handlers of ``HandlerSubscription``,
/// specialised where the chain is built.
@usableFromInline
internal final class ReplaceErrorSubscription<UpstreamFailure: Error, Downstream: Subscriber>:
  LockingHandlerSubscription, Subscriber
{
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline let replacement: Downstream.Input
  // Protected by `lock`: the status, the downstream (released once terminated) and the
  // outstanding downstream demand.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
  // runtime check costs two calls per access in the unspecialised code that runs when upstreams
  // call through `any Subscription`.
  @exclusivity(unchecked) @usableFromInline var status = ReplaceErrorStatus.awaitingSubscription
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none

  @usableFromInline
  override var operatorName: String { "ReplaceError" }

  @inlinable
  init(downstream: Downstream, replacement: Downstream.Input) {
    self.downstream = downstream
    self.replacement = replacement
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: ReplaceErrorSubscription.self).add(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: ReplaceErrorSubscription.self).stop()
      })
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock()
    guard case .awaitingSubscription = status, let downstream else {
      unlock()
      subscription.cancel()
      return
    }
    status = .subscribed(subscription)
    unlock()
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    lock()
    guard case .subscribed = status, let downstream else {
      unlock()
      return .none
    }
    demand -= 1
    unlock()
    let more = downstream.receive(input)
    if more > 0 {
      lock()
      demand += more
      unlock()
    }
    return more
  }

  @inlinable
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock()
    guard case .subscribed(let upstream) = status, let downstream else {
      unlock()
      return
    }
    defer { withExtendedLifetime(upstream) {} }
    let replaced: Subscribers.Completion<Downstream.Failure>?
    switch completion {
    case .finished: replaced = .finished
    case .failure: replaced = nil
    }
    if replaced == nil && demand == .none {
      status = .awaitingDemand
      unlock()
      return
    }
    guard let replaced else {
      status = .delivering
      unlock()
      deliverReplacement(to: downstream)
      return
    }
    status = .terminated
    self.downstream = nil
    unlock()
    downstream.receive(completion: replaced)
  }

  /// Delivers the replacement, then `.finished` unless the downstream cancelled while receiving it.
  @inlinable
  func deliverReplacement(to downstream: Downstream) {
    _ = downstream.receive(replacement)
    lock()
    guard case .delivering = status else {
      unlock()
      return
    }
    status = .terminated
    self.downstream = nil
    unlock()
    downstream.receive(completion: .finished)
  }

  /// Adds the downstream's demand: passes it upstream, or delivers the replacement waiting for it.
  @inlinable
  func add(_ more: Subscribers.Demand) {
    guard more > 0 else { return }
    lock()
    switch status {
    case .subscribed(let upstream):
      demand += more
      unlock()
      upstream.request(more)
    case .awaitingDemand:
      status = .delivering
      let downstream = self.downstream
      unlock()
      if let downstream {
        deliverReplacement(to: downstream)
      }
    case .awaitingSubscription, .delivering, .terminated:
      unlock()
    }
  }

  /// The downstream cancelled: cancels the upstream and releases the downstream.
  @inlinable
  func stop() {
    lock()
    let upstream: (any Subscription)?
    switch status {
    case .subscribed(let subscription): upstream = subscription
    case .awaitingDemand, .delivering: upstream = nil
    case .awaitingSubscription, .terminated:
      unlock()
      return
    }
    status = .terminated
    let downstream = self.downstream
    self.downstream = nil
    unlock()
    upstream?.cancel()
    withExtendedLifetime(downstream) {}
  }
}
