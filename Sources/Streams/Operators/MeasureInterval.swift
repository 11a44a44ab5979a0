extension Publisher {
  /// Replaces each value with the time elapsed since the previous value (or since subscription,
  /// for the first one), measured on `scheduler`'s clock.
  ///
  /// The completion passes through unchanged. Demand is Combine's: the downstream's requests go to
  /// the upstream as they are, and the demand the downstream returns for a value is requested from
  /// the upstream (not returned to it). Nothing is delivered after a cancel. `options` is accepted
  /// for symmetry with the other scheduler operators and not used: measuring only reads the
  /// scheduler's clock.
  ///
  /// ```swift
  /// taps.measureInterval(using: DispatchQueue.main).sink { print($0.magnitude, "ns") }
  /// ```
  @inlinable
  public func measureInterval<S: Scheduler>(
    using scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.MeasureInterval<Self, S> {
    Publishers.MeasureInterval(upstream: self, scheduler: scheduler)
  }
}

extension Publishers {
  /// A publisher of the intervals between its upstream's values.
  public struct MeasureInterval<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Context.SchedulerTimeType.Stride
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The scheduler whose clock measures.
    public let scheduler: Context

    /// Intervals between `upstream`'s values.
    @inlinable
    public init(upstream: Upstream, scheduler: Context) {
      self.upstream = upstream
      self.scheduler = scheduler
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber:
          MeasureIntervalSubscription<Upstream.Output, S, Context>(
            downstream: subscriber, scheduler: scheduler))
    }
  }
}

/// The subscriber `measureInterval(using:)` attaches to its upstream, and the subscription it gives
/// the downstream.
@usableFromInline
internal final class MeasureIntervalSubscription<
  Input, Downstream: Subscriber, Context: Scheduler
>: Subscriber, Subscription, OperatorNamed
where Downstream.Input == Context.SchedulerTimeType.Stride {
  @usableFromInline
  var operatorName: String { "MeasureInterval" }

  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let lock = StreamsLock()
  // Protected by `lock`: the upstream, and the time of the previous value (or of the
  // subscription).
  @usableFromInline
  @exclusivity(unchecked) var upstream = UpstreamState()
  @usableFromInline
  @exclusivity(unchecked) var last: Context.SchedulerTimeType?

  @inlinable
  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  @inlinable
  func receive(subscription: any Subscription) {
    let now = scheduler.now
    let isAttached = lock.withLock {
      guard upstream.attach(subscription) != nil else { return false }
      last = now
      return true
    }
    guard isAttached else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    lock.lock()
    guard let subscription = upstream.subscription else {
      lock.unlock()
      return .none
    }
    let previous = last ?? now
    last = now
    lock.unlock()
    let more = downstream.receive(previous.distance(to: now))
    if more > 0 { subscription.request(more) }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    guard let finished = lock.withLock({ upstream.finish() }) else { return }
    withExtendedLifetime(finished) {}
    downstream.receive(completion: completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { upstream.subscription }?.request(demand)
  }

  @inlinable
  func cancel() {
    lock.withLock { upstream.finish() }?.cancel()
  }
}
