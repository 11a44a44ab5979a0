extension Scheduler {
  /// A publisher that emits the scheduler's time every `interval`, starting `interval` after each
  /// subscription.
  ///
  /// Each subscriber gets its own timer. A tick that finds the subscriber without demand is
  /// dropped (as a timer cannot wait); cancelling stops the timer. The publisher never completes.
  ///
  /// ```swift
  /// let cancellable = DispatchQueue.main.publisher(every: .seconds(1)).sink { print($0) }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: the time between ticks.
  ///   - tolerance: the tolerance of the timer; `nil` means the scheduler's minimum.
  ///   - options: scheduler options.
  @inlinable
  public func publisher(
    every interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride? = nil,
    options: SchedulerOptions? = nil
  ) -> Publishers.Interval<Self> {
    Publishers.Interval(
      scheduler: self, interval: interval, tolerance: tolerance ?? minimumTolerance,
      options: options)
  }
}

extension Publishers {
  /// A publisher of a scheduler's time at a regular interval.
  ///
  /// See ``Scheduler/publisher(every:tolerance:options:)`` for the semantics.
  public struct Interval<Context: Scheduler>: Publisher {
    public typealias Output = Context.SchedulerTimeType
    public typealias Failure = Never

    /// The scheduler that ticks.
    public let scheduler: Context
    /// The time between ticks.
    public let interval: Context.SchedulerTimeType.Stride
    /// The timer tolerance.
    public let tolerance: Context.SchedulerTimeType.Stride
    /// Scheduler options.
    public let options: Context.SchedulerOptions?

    /// Ticks of `scheduler` every `interval`.
    @inlinable
    public init(
      scheduler: Context, interval: Context.SchedulerTimeType.Stride,
      tolerance: Context.SchedulerTimeType.Stride, options: Context.SchedulerOptions?
    ) {
      self.scheduler = scheduler
      self.interval = interval
      self.tolerance = tolerance
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = IntervalSubscription(downstream: subscriber, scheduler: scheduler)
      subscription.start()
      let timer = scheduler.schedule(
        after: scheduler.now.advanced(by: interval), interval: interval, tolerance: tolerance,
        options: options
      ) { [weak subscription] in
        subscription?.tick()
      }
      subscription.hold(timer)
    }
  }
}

@usableFromInline
internal final class IntervalSubscription<Downstream: Subscriber, Context: Scheduler>:
  StatefulOperatorSubscription<Downstream>
where Downstream.Input == Context.SchedulerTimeType {
  @usableFromInline
  override var operatorName: String { "Interval" }

  // `scheduler` is immutable; `timer` is protected by the inherited `lock`.
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  @exclusivity(unchecked) var timer: (any Cancellable)?

  @inlinable
  init(downstream: Downstream, scheduler: Context) {
    self.scheduler = scheduler
    super.init(downstream: downstream)
  }

  deinit {
    timer?.cancel()
  }

  /// Keeps the timer to cancel it with the subscription (or cancels it if already cancelled).
  @inlinable
  func hold(_ timer: any Cancellable) {
    lock.lock()
    let ended = delivery.isClosed
    if !ended { self.timer = timer }
    lock.unlock()
    if ended { timer.cancel() }
  }

  @inlinable
  func tick() {
    let now = scheduler.now
    lock.lock()
    if delivery.unusedDemand > 0 { delivery.push(now) }
    lock.unlock()
    drain()
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    if let timer {
      effects.run { timer.cancel() }
    }
    timer = nil
  }
}
