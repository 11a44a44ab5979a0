extension Publishers {
  /// How `collect(_:options:)` groups values over time.
  public enum TimeGroupingStrategy<Context: Scheduler> {
    /// Publishes the values received during each window of the given length.
    case byTime(Context, Context.SchedulerTimeType.Stride)
    /// Publishes at the end of each window, or as soon as the given count is reached (which
    /// starts a new window).
    case byTimeOrCount(Context, Context.SchedulerTimeType.Stride, Int)
  }
}

extension Publisher {
  /// Collects values into arrays, one per time window (or per count reached).
  ///
  /// Semantics:
  /// - windows start at subscription and follow each other; an empty window publishes nothing;
  /// - with `.byTimeOrCount`, reaching the count publishes at once and restarts the window;
  ///   a count below 1 is treated as 1;
  /// - the upstream is asked for unlimited values; arrays wait for downstream demand;
  /// - on finish, the values collected so far are published, then the finish; on failure they
  ///   are dropped.
  ///
  /// ```swift
  /// events.collect(.byTime(DispatchQueue.main, .seconds(1)))   // one array per second
  /// ```
  @inlinable
  public func collect<S: Scheduler>(
    _ strategy: Publishers.TimeGroupingStrategy<S>, options: S.SchedulerOptions? = nil
  ) -> Publishers.CollectByTime<Self, S> {
    Publishers.CollectByTime(upstream: self, strategy: strategy, options: options)
  }
}

extension Publishers {
  /// A publisher of the values its upstream sent in each time window.
  ///
  /// See ``Publisher/collect(_:options:)`` for the semantics.
  public struct CollectByTime<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The grouping strategy.
    public let strategy: TimeGroupingStrategy<Context>
    /// Scheduler options.
    public let options: Context.SchedulerOptions?

    /// Groups of `upstream`'s values by `strategy`.
    @inlinable
    public init(
      upstream: Upstream, strategy: TimeGroupingStrategy<Context>,
      options: Context.SchedulerOptions?
    ) {
      self.upstream = upstream
      self.strategy = strategy
      self.options = options
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = CollectByTimeSubscription<Upstream.Output, S, Context>(
        downstream: subscriber, strategy: strategy, options: options)
      subscription.start()
      subscription.openWindow(generation: 0)
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The state of a time grouping: the values of the current window and its generation.
@usableFromInline
internal struct CollectByTimeState<Value> {
  @usableFromInline
  let maximumCount: Int?
  @usableFromInline
  var upstream = UpstreamState()
  @usableFromInline
  var collected: [Value] = []
  @usableFromInline
  var generation: UInt64 = 0

  @inlinable
  init(maximumCount: Int?) {
    self.maximumCount = maximumCount
  }

  @usableFromInline
  internal enum Action {
    case none
    case publish([Value], restartWindow: UInt64?)
  }

  @inlinable
  mutating func received(_ value: Value) -> Action {
    guard !upstream.isFinished else { return .none }
    collected.append(value)
    guard let maximumCount, collected.count >= maximumCount else { return .none }
    generation &+= 1
    defer { collected = [] }
    return .publish(collected, restartWindow: generation)
  }

  @inlinable
  mutating func windowEnded(generation: UInt64) -> Action {
    guard !upstream.isFinished, generation == self.generation, !collected.isEmpty else {
      return .none
    }
    defer { collected = [] }
    return .publish(collected, restartWindow: nil)
  }

  @inlinable
  mutating func end() -> (upstream: (any Subscription)?, collected: [Value]) {
    defer { collected = [] }
    return (upstream.finish(), collected)
  }
}

@usableFromInline
internal final class CollectByTimeSubscription<Value, Downstream: Subscriber, Context: Scheduler>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
where Downstream.Input == [Value] {
  @usableFromInline
  override var operatorName: String { "CollectByTime" }

  // Immutable configuration; `state` and `window` are protected by the inherited `lock`.
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  @exclusivity(unchecked) var state: CollectByTimeState<Value>
  @usableFromInline
  @exclusivity(unchecked) var window: (any Cancellable)?

  @inlinable
  init(
    downstream: Downstream, strategy: Publishers.TimeGroupingStrategy<Context>,
    options: Context.SchedulerOptions?
  ) {
    switch strategy {
    case .byTime(let scheduler, let interval):
      self.scheduler = scheduler
      self.interval = interval
      state = CollectByTimeState(maximumCount: nil)
    case .byTimeOrCount(let scheduler, let interval, let count):
      self.scheduler = scheduler
      self.interval = interval
      state = CollectByTimeState(maximumCount: max(count, 1))
    }
    self.options = options
    super.init(downstream: downstream)
  }

  /// Starts the repeating window timer for `generation`, replacing the previous one.
  @inlinable
  func openWindow(generation: UInt64) {
    let timer = scheduler.schedule(
      after: scheduler.now.advanced(by: interval), interval: interval,
      tolerance: scheduler.minimumTolerance, options: options
    ) { [weak self] in
      self?.windowEnded(generation: generation)
    }
    lock.lock()
    let isCurrent = !state.upstream.isFinished && generation == state.generation
    let replaced = isCurrent ? window : timer
    if isCurrent { window = timer }
    lock.unlock()
    replaced?.cancel()
  }

  @inlinable
  func windowEnded(generation: UInt64) {
    lock.lock()
    applyAndUnlock(state.windowEnded(generation: generation))
  }

  /// Applies `action`; called with the lock held, returns with it released.
  @inlinable
  func applyAndUnlock(_ action: CollectByTimeState<Value>.Action) {
    guard case .publish(let values, let restart) = action else {
      lock.unlock()
      return
    }
    delivery.push(values)
    lock.unlock()
    if let restart { openWindow(generation: restart) }
    drain()
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription, asking: .unlimited) {
      state.upstream.attach(subscription, isWanted: !delivery.isClosed)
    }
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Value) {
    lock.lock()
    applyAndUnlock(state.received(value))
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    let ended = state.end()
    if case .finished = completion, !ended.collected.isEmpty { delivery.push(ended.collected) }
    let window = self.window
    self.window = nil
    var effects = DeferredEffects()
    if let window { effects.run { window.cancel() } }
    finishAndUnlock(completion, effects: effects)
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    let ended = state.end()
    effects.cancel(ended.upstream)
    if let window {
      effects.run { window.cancel() }
    }
    window = nil
    effects.release(ended.collected)
  }
}
