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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber: ReplaceErrorSubscription<Output, Upstream.Failure, S?>(
          downstream: subscriber, replacement: output))
    }
  }
}

/// Where a ``ReplaceErrorSubscription`` stands. A trivial enum of its own, with the upstream
/// subscription kept beside it, rather than one nested in the generic class or one carrying the
/// subscription: releasing the subscription (in code not specialised for it) then needs no
/// run-time metadata for it, and testing the phase copies no existential.
@usableFromInline
internal enum ReplaceErrorPhase {
  case awaitingSubscription
  case subscribed
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
///
/// Its generic arguments are the output and the held downstream (`Downstream?`, see
/// `OptionalSlot`) themselves, so that releasing it (in code not specialised for it) finds the
/// metadata of both fields among its own instead of looking them up at run time.
@usableFromInline
internal final class ReplaceErrorSubscription<
  Output, UpstreamFailure: Error, HeldDownstream: OptionalSlot
>: LockingHandlerSubscription, Subscriber
where HeldDownstream.Wrapped: Subscriber, HeldDownstream.Wrapped.Input == Output {
  @usableFromInline typealias Downstream = HeldDownstream.Wrapped
  @usableFromInline typealias Input = Output
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline let replacement: Output
  // Protected by `lock`: the phase, the upstream subscription (held while subscribed), the
  // downstream (released once terminated) and the outstanding downstream demand.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
  // runtime check costs two calls per access in the unspecialised code that runs when upstreams
  // call through `any Subscription`.
  @exclusivity(unchecked) @usableFromInline var phase = ReplaceErrorPhase.awaitingSubscription
  @exclusivity(unchecked) @usableFromInline var upstream = HeldSubscription()
  @exclusivity(unchecked) @usableFromInline var downstream: HeldDownstream
  @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none

  @usableFromInline
  override var operatorName: String { "ReplaceError" }

  @inlinable
  init<S: Subscriber>(downstream: S, replacement: Output) where HeldDownstream == S? {
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
    guard phase == .awaitingSubscription, let downstream = downstream.wrapped else {
      unlock()
      subscription.cancel()
      return
    }
    phase = .subscribed
    upstream.hold(subscription)
    unlock()
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Output) -> Subscribers.Demand {
    lock()
    guard phase == .subscribed, let downstream = downstream.wrapped else {
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
    guard phase == .subscribed, let downstream = downstream.wrapped else {
      unlock()
      return
    }
    let upstream = self.upstream.take()
    defer { withExtendedLifetime(upstream) {} }
    let replaced: Subscribers.Completion<Downstream.Failure>?
    switch completion {
    case .finished: replaced = .finished
    case .failure: replaced = nil
    }
    if replaced == nil && demand == .none {
      phase = .awaitingDemand
      unlock()
      return
    }
    guard let replaced else {
      phase = .delivering
      unlock()
      deliverReplacement(to: downstream)
      return
    }
    phase = .terminated
    _ = self.downstream.take()
    unlock()
    downstream.receive(completion: replaced)
  }

  /// Delivers the replacement, then `.finished` unless the downstream cancelled while receiving it.
  @inlinable
  func deliverReplacement(to downstream: Downstream) {
    _ = downstream.receive(replacement)
    lock()
    guard phase == .delivering else {
      unlock()
      return
    }
    phase = .terminated
    _ = self.downstream.take()
    unlock()
    downstream.receive(completion: .finished)
  }

  /// Adds the downstream's demand: passes it upstream, or delivers the replacement waiting for it.
  @inlinable
  func add(_ more: Subscribers.Demand) {
    guard more > 0 else { return }
    lock()
    switch phase {
    case .subscribed:
      demand += more
      let upstream = self.upstream.subscription
      unlock()
      upstream.request(more)
    case .awaitingDemand:
      phase = .delivering
      let downstream = self.downstream.wrapped
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
    switch phase {
    case .subscribed, .awaitingDemand, .delivering:
      break
    case .awaitingSubscription, .terminated:
      unlock()
      return
    }
    phase = .terminated
    let upstream = self.upstream.take()
    let downstream = self.downstream.take()
    unlock()
    upstream.cancel()
    withExtendedLifetime(downstream) {}
  }
}
