extension Publisher {
  /// Delivers every value and the completion `interval` later, on `scheduler`.
  ///
  /// Demand passes through to the upstream, so values wait in time, never for demand. The
  /// completion (finish or failure) is delayed by the same interval and comes after every value
  /// received before it. Cancelling drops the values still in flight.
  ///
  /// ```swift
  /// subject.delay(for: .milliseconds(100), scheduler: DispatchQueue.main)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: how long each event is held.
  ///   - tolerance: the scheduler tolerance; `nil` means its minimum.
  ///   - scheduler: the scheduler that holds and delivers the events.
  ///   - options: scheduler options.
  @inlinable
  public func delay<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, tolerance: S.SchedulerTimeType.Stride? = nil,
    scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Delay<Self, S> {
    Publishers.Delay(
      upstream: self, interval: interval, tolerance: tolerance ?? scheduler.minimumTolerance,
      scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delivers its upstream's events after a fixed delay.
  ///
  /// See ``Publisher/delay(for:tolerance:scheduler:options:)`` for the semantics.
  public struct Delay<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher being delayed.
    public let upstream: Upstream
    /// The delay.
    public let interval: Context.SchedulerTimeType.Stride
    /// The scheduler tolerance.
    public let tolerance: Context.SchedulerTimeType.Stride
    /// The scheduler that delivers.
    public let scheduler: Context
    /// Scheduler options.
    public let options: Context.SchedulerOptions?

    /// A delay of `upstream`.
    @inlinable
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions? = nil
    ) {
      self.upstream = upstream
      self.interval = interval
      self.tolerance = tolerance
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = ScheduledRelaySubscription(
        downstream: subscriber, scheduler: scheduler, options: options,
        delay: (interval, tolerance))
      subscription.start()
      upstream.receive(subscriber: UpstreamLink(owner: subscription, index: 0))
    }
  }
}
