extension Publisher {
  /// Publishes a value only after `dueTime` has passed without another value.
  ///
  /// Each value replaces the pending one and restarts the wait. Semantics (as Combine's):
  /// - the upstream is asked for unlimited values; when the wait ends and the downstream has no
  ///   demand, the pending value is dropped;
  /// - on completion the pending value is dropped and the completion is delivered through
  ///   `scheduler.schedule`;
  /// - on an `ImmediateScheduler` the wait ends at once, so every value is forwarded.
  ///
  /// ```swift
  /// searchText.debounce(for: .milliseconds(300), scheduler: DispatchQueue.main)
  /// ```
  ///
  /// - Parameters:
  ///   - dueTime: how long the upstream must stay quiet before the latest value is published.
  ///   - scheduler: the scheduler that measures the wait and delivers the value.
  ///   - options: scheduler options for the delivery.
  @inlinable
  public func debounce<S: Scheduler>(
    for dueTime: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.Debounce<Self, S> {
    Publishers.Debounce(upstream: self, dueTime: dueTime, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that publishes a value once its upstream has been quiet for `dueTime`.
  ///
  /// See ``Publisher/debounce(for:scheduler:options:)`` for the semantics.
  public struct Debounce<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher being debounced.
    public let upstream: Upstream
    /// The quiet time required before a value is published.
    public let dueTime: Context.SchedulerTimeType.Stride
    /// The scheduler that measures time and delivers.
    public let scheduler: Context
    /// Scheduler options.
    public let options: Context.SchedulerOptions?

    /// A debounce of `upstream`.
    @inlinable
    public init(
      upstream: Upstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.dueTime = dueTime
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = DebounceSubscription(
        downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options)
      subscription.start()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The state of a debounce: the upstream, the pending value and the generation of the latest
/// wait.
@usableFromInline
internal struct DebounceState<Value> {
  @usableFromInline
  var upstream = UpstreamState()
  @usableFromInline
  var pending: Value?
  @usableFromInline
  var generation: UInt64 = 0

  @inlinable
  init() {}

  /// Keeps `value` as the pending one; the generation of the wait to start, nil once the upstream
  /// is over.
  @inlinable
  mutating func received(_ value: Value) -> UInt64? {
    guard !upstream.isFinished else { return nil }
    pending = value
    generation &+= 1
    return generation
  }

  /// The value to publish when the wait of `generation` ends, if it is still the latest.
  @inlinable
  mutating func waitEnded(generation: UInt64) -> Value? {
    guard !upstream.isFinished, generation == self.generation else { return nil }
    defer { pending = nil }
    return pending
  }

  /// Ends the debounce; returns the upstream subscription and the dropped pending value.
  @inlinable
  mutating func end() -> (upstream: (any Subscription)?, dropped: Value?) {
    defer { pending = nil }
    return (upstream.finish(), pending)
  }
}

/// The subscription of `debounce`: each value replaces the pending one and restarts the wait;
/// the pending value is published when a wait ends.
@usableFromInline
internal final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Debounce" }

  // Immutable configuration; `state` is protected by the inherited `lock`.
  @usableFromInline
  let dueTime: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  @exclusivity(unchecked) var state = DebounceState<Downstream.Input>()

  @inlinable
  init(
    downstream: Downstream, dueTime: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?
  ) {
    self.dueTime = dueTime
    self.scheduler = scheduler
    self.options = options
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription, asking: .unlimited) {
      state.upstream.attach(subscription, isWanted: !delivery.isClosed)
    }
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    guard let generation = lock.withLock({ state.received(value) }) else { return }
    scheduler.schedule(
      after: scheduler.now.advanced(by: dueTime), tolerance: scheduler.minimumTolerance,
      options: options
    ) { [self] in
      waitEnded(generation: generation)
    }
  }

  @inlinable
  func waitEnded(generation: UInt64) {
    lock.lock()
    guard let value = state.waitEnded(generation: generation) else {
      lock.unlock()
      return
    }
    guard delivery.unusedDemand > 0 else {
      lock.unlock()
      withExtendedLifetime(value) {}
      return
    }
    sendAndUnlock(value)
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    let ended = lock.withLock { state.end() }
    withExtendedLifetime(ended) {}
    scheduler.schedule(options: options) { [self] in
      lock.lock()
      finishAndUnlock(completion)
    }
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    let ended = state.end()
    effects.cancel(ended.upstream)
    effects.release(ended.dropped)
  }
}
