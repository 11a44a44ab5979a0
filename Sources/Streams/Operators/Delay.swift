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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = DelaySubscription(
        downstream: subscriber, scheduler: scheduler, options: options, interval: interval,
        tolerance: tolerance)
      subscription.start()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The subscription of `delay(for:)`: demand passes through, every event is handed to the
/// scheduler after the delay and then to the delivery queue.
@usableFromInline
internal final class DelaySubscription<Downstream: Subscriber, Context: Scheduler>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Delay" }

  // Immutable configuration; `upstream` is protected by the inherited `lock`.
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let tolerance: Context.SchedulerTimeType.Stride
  @usableFromInline
  @exclusivity(unchecked) var upstream = UpstreamState()

  @inlinable
  init(
    downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
    interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride
  ) {
    self.scheduler = scheduler
    self.options = options
    self.interval = interval
    self.tolerance = tolerance
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription) {
      upstream.attach(subscription, isWanted: !delivery.isClosed)
    }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    upstream.request(added, into: &effects)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    hand { [self] in
      lock.lock()
      sendAndUnlock(value)
    }
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    let finished = lock.withLock { upstream.finish() }
    withExtendedLifetime(finished) {}
    hand { [self] in
      lock.lock()
      finishAndUnlock(completion)
    }
  }

  @inlinable
  func hand(_ action: @escaping () -> Void) {
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: tolerance, options: options, action)
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    effects.cancel(upstream.finish())
  }
}
