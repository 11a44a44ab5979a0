extension Publisher {
  /// Delivers values and the completion on `scheduler`.
  ///
  /// Demand and cancellation pass through to the upstream; each event is handed to the scheduler
  /// in arrival order, and calls into the downstream never overlap, even on a concurrent queue.
  /// The subscription itself is delivered on the subscribing thread.
  ///
  /// ```swift
  /// network.receive(on: DispatchQueue.main).sink { updateUI($0) }
  /// ```
  @inlinable
  public func receive<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.ReceiveOn<Self, S> {
    Publishers.ReceiveOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that delivers its upstream's events on a scheduler.
  public struct ReceiveOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The scheduler that delivers.
    public let scheduler: Context
    /// Scheduler options.
    public let options: Context.SchedulerOptions?

    /// `upstream` delivered on `scheduler`.
    @inlinable
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = ScheduledRelaySubscription(
        downstream: subscriber, scheduler: scheduler, options: options, delay: nil)
      subscription.start()
      upstream.receive(subscriber: UpstreamLink(owner: subscription, index: 0))
    }
  }
}

/// The subscription of `receive(on:)` and `delay(for:)`: demand passes through, every event is
/// handed to the scheduler (after a delay, for `delay`) and then to the outlet.
@usableFromInline
internal final class ScheduledRelaySubscription<Downstream: Subscriber, Context: Scheduler>:
  RelaySubscription<Downstream>, UpstreamOwner, @unchecked Sendable
{
  // Immutable configuration; `upstreamSubscription` and `pendingDemand` are protected by the
  // inherited `lock`.
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let delay:
    (interval: Context.SchedulerTimeType.Stride, tolerance: Context.SchedulerTimeType.Stride)?
  @usableFromInline
  var upstreamSubscription: (any Subscription)?
  @usableFromInline
  var pendingDemand = Subscribers.Demand.none
  @usableFromInline
  var isUpstreamDone = false

  @inlinable
  init(
    downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?,
    delay: (Context.SchedulerTimeType.Stride, Context.SchedulerTimeType.Stride)?
  ) {
    self.scheduler = scheduler
    self.options = options
    self.delay = delay
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard !isEnded, !isUpstreamDone, upstreamSubscription == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstreamSubscription = subscription
    let demand = pendingDemand
    pendingDemand = .none
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout RelayEffects) {
    if let upstreamSubscription {
      effects.request(added, from: upstreamSubscription)
    } else {
      pendingDemand += added
    }
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Downstream.Input) {
    hand { [self] in
      lock.lock()
      emitAndUnlock(value)
    }
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    isUpstreamDone = true
    upstreamSubscription = nil
    lock.unlock()
    hand { [self] in
      lock.lock()
      outlet.finish(completion)
      lock.unlock()
      drain()
    }
  }

  @inlinable
  func hand(_ action: @escaping () -> Void) {
    if let delay {
      scheduler.schedule(
        after: scheduler.now.advanced(by: delay.interval), tolerance: delay.tolerance,
        options: options, action)
    } else {
      scheduler.schedule(options: options, action)
    }
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    isUpstreamDone = true
    effects.cancel(upstreamSubscription)
    upstreamSubscription = nil
  }
}
