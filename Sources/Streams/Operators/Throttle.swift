extension Publisher {
  /// Publishes at most one value per `interval`: the first value at once, then, at the end of each
  /// interval, the latest (or the first) value received during it.
  ///
  /// Semantics:
  /// - a value arriving while no interval is running is published at once and opens an interval;
  /// - values arriving during an interval are held: with `latest: true` the most recent one, with
  ///   `latest: false` the first one; at the end of the interval the held value is published and
  ///   a new interval opens; if nothing is held, the throttle goes idle;
  /// - the upstream is asked for unlimited values; a value due while the downstream has no demand
  ///   is dropped;
  /// - on finish, a held value is published first, then the finish; on failure the held value is
  ///   dropped and the failure delivered at once.
  ///
  /// ```swift
  /// taps.throttle(for: .seconds(1), scheduler: DispatchQueue.main, latest: true)
  /// ```
  ///
  /// - Parameters:
  ///   - interval: the minimum time between two published values.
  ///   - scheduler: the scheduler that measures intervals and delivers held values.
  ///   - latest: whether to keep the most recent value of an interval (`true`) or its first one.
  @inlinable
  public func throttle<S: Scheduler>(
    for interval: S.SchedulerTimeType.Stride, scheduler: S, latest: Bool
  ) -> Publishers.Throttle<Self, S> {
    Publishers.Throttle(upstream: self, interval: interval, scheduler: scheduler, latest: latest)
  }
}

extension Publishers {
  /// A publisher that publishes at most one value per interval.
  ///
  /// See ``Publisher/throttle(for:scheduler:latest:)`` for the semantics.
  public struct Throttle<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher being throttled.
    public let upstream: Upstream
    /// The minimum time between two published values.
    public let interval: Context.SchedulerTimeType.Stride
    /// The scheduler that measures time.
    public let scheduler: Context
    /// Whether the latest value of an interval wins (otherwise the first).
    public let latest: Bool

    /// A throttle of `upstream`.
    @inlinable
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      latest: Bool
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.latest = latest
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = ThrottleSubscription(
        downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest)
      subscription.start()
      upstream.receive(subscriber: UpstreamLink(owner: subscription, index: 0))
    }
  }
}

/// The state of a throttle: whether an interval runs and the value held for its end.
@usableFromInline
internal struct ThrottleState<Value> {
  @usableFromInline
  internal enum Action {
    case none
    /// Publish the value and open a new interval.
    case publish(Value)
  }

  @usableFromInline
  let keepsLatest: Bool
  @usableFromInline
  var upstream: (any Subscription)?
  @usableFromInline
  var isIntervalRunning = false
  @usableFromInline
  var held: Value?
  @usableFromInline
  var isDone = false

  @inlinable
  init(keepsLatest: Bool) {
    self.keepsLatest = keepsLatest
  }

  @inlinable
  mutating func received(_ value: Value) -> Action {
    guard !isDone else { return .none }
    if !isIntervalRunning {
      isIntervalRunning = true
      return .publish(value)
    }
    if keepsLatest || held == nil { held = value }
    return .none
  }

  @inlinable
  mutating func intervalEnded() -> Action {
    guard !isDone else { return .none }
    guard let value = held else {
      isIntervalRunning = false
      return .none
    }
    held = nil
    return .publish(value)
  }

  /// The value to publish before a finish.
  @inlinable
  mutating func finish() -> Value? {
    isDone = true
    upstream = nil
    defer { held = nil }
    return held
  }

  @inlinable
  mutating func end() -> (upstream: (any Subscription)?, dropped: Value?) {
    isDone = true
    defer {
      upstream = nil
      held = nil
    }
    return (upstream, held)
  }
}

@usableFromInline
internal final class ThrottleSubscription<Downstream: Subscriber, Context: Scheduler>:
  RelaySubscription<Downstream>, UpstreamOwner, @unchecked Sendable
{
  // Immutable configuration; `state` is protected by the inherited `lock`.
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  var state: ThrottleState<Downstream.Input>

  @inlinable
  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    latest: Bool
  ) {
    self.interval = interval
    self.scheduler = scheduler
    state = ThrottleState(keepsLatest: latest)
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    let accepted = !isEnded && !state.isDone && state.upstream == nil
    if accepted { state.upstream = subscription }
    lock.unlock()
    if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Downstream.Input) {
    lock.lock()
    let action = state.received(value)
    perform(action)
  }

  @inlinable
  func intervalEnded() {
    lock.lock()
    let action = state.intervalEnded()
    perform(action)
  }

  /// Applies `action`; called with the lock held, returns with it released.
  @inlinable
  func perform(_ action: ThrottleState<Downstream.Input>.Action) {
    guard case .publish(let value) = action else {
      lock.unlock()
      return
    }
    var dropped: Downstream.Input?
    if outlet.unusedDemand > 0 { outlet.push(value) } else { dropped = value }
    lock.unlock()
    withExtendedLifetime(dropped) {}
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance,
      options: nil
    ) { [self] in
      intervalEnded()
    }
    drain()
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    var dropped: Downstream.Input?
    if case .finished = completion, let value = state.finish() {
      if outlet.unusedDemand > 0 { outlet.push(value) } else { dropped = value }
    } else {
      dropped = state.end().dropped
    }
    outlet.finish(completion)
    lock.unlock()
    withExtendedLifetime(dropped) {}
    drain()
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    let ended = state.end()
    effects.cancel(ended.upstream)
    effects.run { withExtendedLifetime(ended.dropped) {} }
  }
}
