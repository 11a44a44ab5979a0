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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = DebounceSubscription(
        downstream: subscriber, dueTime: dueTime, scheduler: scheduler, options: options)
      subscription.start()
      upstream.receive(subscriber: UpstreamLink(owner: subscription, index: 0))
    }
  }
}

/// The state of a debounce: the pending value and the generation of the latest wait.
@usableFromInline
internal struct DebounceState<Value> {
  @usableFromInline
  internal enum Action {
    case none
    case startWait(generation: UInt64)
    case cancelUpstream(any Subscription)
  }

  @usableFromInline
  var upstream: (any Subscription)?
  @usableFromInline
  var pending: Value?
  @usableFromInline
  var generation: UInt64 = 0
  @usableFromInline
  var isDone = false

  @inlinable
  mutating func subscribed(_ subscription: any Subscription) -> Action {
    guard !isDone, upstream == nil else { return .cancelUpstream(subscription) }
    upstream = subscription
    return .none
  }

  @inlinable
  mutating func received(_ value: Value) -> Action {
    guard !isDone else { return .none }
    pending = value
    generation &+= 1
    return .startWait(generation: generation)
  }

  /// The value to publish when the wait of `generation` ends, if it is still the latest.
  @inlinable
  mutating func waitEnded(generation: UInt64) -> Value? {
    guard !isDone, generation == self.generation else { return nil }
    defer { pending = nil }
    return pending
  }

  /// Ends the debounce; returns the upstream to cancel and the dropped pending value.
  @inlinable
  mutating func end() -> (upstream: (any Subscription)?, dropped: Value?) {
    isDone = true
    defer {
      upstream = nil
      pending = nil
    }
    return (upstream, pending)
  }
}

@usableFromInline
internal final class DebounceSubscription<Downstream: Subscriber, Context: Scheduler>:
  RelaySubscription<Downstream>, UpstreamOwner, @unchecked Sendable
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
  var state = DebounceState<Downstream.Input>()

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
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    let action = isEnded ? .cancelUpstream(subscription) : state.subscribed(subscription)
    lock.unlock()
    if case .cancelUpstream(let subscription) = action {
      subscription.cancel()
    } else {
      subscription.request(.unlimited)
    }
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Downstream.Input) {
    lock.lock()
    let action = state.received(value)
    lock.unlock()
    guard case .startWait(let generation) = action else { return }
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
    guard outlet.unusedDemand > 0 else {
      lock.unlock()
      withExtendedLifetime(value) {}
      return
    }
    emitAndUnlock(value)
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    let ended = state.end()
    lock.unlock()
    withExtendedLifetime(ended) {}
    scheduler.schedule(options: options) { [self] in
      lock.lock()
      outlet.finish(completion)
      lock.unlock()
      drain()
    }
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    let ended = state.end()
    effects.cancel(ended.upstream)
    effects.run { withExtendedLifetime(ended.dropped) {} }
  }
}
