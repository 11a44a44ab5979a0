extension Publisher {
  /// Replaces each value with the time elapsed since the previous value (or since subscription,
  /// for the first one), measured on `scheduler`'s clock.
  ///
  /// Demand and completion pass through unchanged. `options` is accepted for symmetry with the
  /// other scheduler operators and not used: measuring only reads the scheduler's clock.
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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber:
          MeasureIntervalSubscriber<Upstream.Output, S, Context>(
            downstream: subscriber, scheduler: scheduler))
    }
  }
}

/// Measures between values; the upstream calls it serially, so the last time needs its lock only
/// against the subscription arriving on another thread.
@usableFromInline
internal final class MeasureIntervalSubscriber<
  Input, Downstream: Subscriber, Context: Scheduler
>: Subscriber, OperatorNamed
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
  // Protected by `lock`: the time of the previous value (or of the subscription).
  @usableFromInline
  var last: Context.SchedulerTimeType?

  @inlinable
  init(downstream: Downstream, scheduler: Context) {
    self.downstream = downstream
    self.scheduler = scheduler
  }

  @inlinable
  func receive(subscription: any Subscription) {
    let now = scheduler.now
    lock.withLock { last = now }
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    let now = scheduler.now
    let previous = lock.withLock {
      defer { last = now }
      return last ?? now
    }
    return downstream.receive(previous.distance(to: now))
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }
}
