extension Publisher {
  /// Publishes at most one value per `interval`: the first value as soon as the scheduler runs,
  /// then, at the end of each interval, the latest (or the first) value received during it.
  ///
  /// Semantics (as Combine's):
  /// - a value arriving while nothing is held is held and its publication is scheduled: through
  ///   `scheduler.schedule` when at least `interval` passed since the last publication (or none
  ///   happened), otherwise at the last publication plus `interval`;
  /// - values arriving while a value is held replace it with `latest: true` (so values sent in
  ///   the same turn as the first replace it) and are dropped with `latest: false`;
  /// - the upstream is asked for unlimited values; a value due while the downstream has no demand
  ///   is dropped;
  /// - on completion, finished or failed, the held value is published first, then the
  ///   completion: both when the held value's publication is due (the completion waits for it),
  ///   or the completion alone through `scheduler.schedule` when no value is held.
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = ThrottleSubscription(
        downstream: subscriber, interval: interval, scheduler: scheduler, latest: latest)
      subscription.start()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The state of a throttle: the value held for publication, the time of the last publication,
/// the completion waiting to follow the held value.
@usableFromInline
internal struct ThrottleState<Value, Time: Strideable, Failure: Error> {
  @usableFromInline
  internal enum Action {
    case none
    /// Schedule the publication of the held value at this time (nil: as soon as possible).
    case schedulePublication(at: Time?)
    /// Schedule the delivery of the completion (after the held value, if any).
    case scheduleCompletion
  }

  /// Where the throttle stands.
  @usableFromInline
  internal enum Phase {
    /// Values come from the upstream.
    case running
    /// The upstream completed; the completion waits for its scheduled delivery.
    case completing(Subscribers.Completion<Failure>)
    /// The completion was handed over, or the downstream cancelled.
    case done
  }

  @usableFromInline
  let keepsLatest: Bool
  @usableFromInline
  let interval: Time.Stride
  @usableFromInline
  var upstream = UpstreamState()
  @usableFromInline
  var phase = Phase.running
  @usableFromInline
  var held: Value?
  @usableFromInline
  var lastPublication: Time?

  @inlinable
  init(keepsLatest: Bool, interval: Time.Stride) {
    self.keepsLatest = keepsLatest
    self.interval = interval
  }

  @inlinable
  mutating func received(_ value: Value, now: Time) -> Action {
    guard case .running = phase else { return .none }
    guard held == nil else {
      if keepsLatest { held = value }
      return .none
    }
    held = value
    guard let last = lastPublication else { return .schedulePublication(at: nil) }
    let due = last.advanced(by: interval)
    return .schedulePublication(at: due > now ? due : nil)
  }

  /// The held value to publish now, if any; records the publication time.
  @inlinable
  mutating func publicationDue(now: Time) -> Value? {
    if case .done = phase { return nil }
    guard let value = held else { return nil }
    held = nil
    lastPublication = now
    return value
  }

  /// Records the completion; it is scheduled at once unless a held value's publication is
  /// already scheduled, which then delivers it after the value.
  @inlinable
  mutating func completed(_ completion: Subscribers.Completion<Failure>) -> Action {
    guard case .running = phase else { return .none }
    phase = .completing(completion)
    _ = upstream.finish()
    return held == nil ? .scheduleCompletion : .none
  }

  /// Whether the completion waits to be delivered with the held value.
  @inlinable
  var isCompleting: Bool {
    if case .completing = phase { return true }
    return false
  }

  /// The held value and the completion to deliver, once; ends the throttle.
  @inlinable
  mutating func completionDue() -> (value: Value?, completion: Subscribers.Completion<Failure>)? {
    guard case .completing(let completion) = phase else { return nil }
    phase = .done
    defer { held = nil }
    return (held, completion)
  }

  @inlinable
  mutating func end() -> (upstream: (any Subscription)?, dropped: Value?) {
    phase = .done
    defer { held = nil }
    return (upstream.finish(), held)
  }
}

@usableFromInline
internal final class ThrottleSubscription<Downstream: Subscriber, Context: Scheduler>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Throttle" }

  // Immutable configuration; `state` is protected by the inherited `lock`.
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  @exclusivity(unchecked) var state:
    ThrottleState<Downstream.Input, Context.SchedulerTimeType, Downstream.Failure>

  @inlinable
  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    latest: Bool
  ) {
    self.scheduler = scheduler
    state = ThrottleState(keepsLatest: latest, interval: interval)
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription, asking: .unlimited) {
      state.upstream.attach(subscription, isWanted: delivery.isOpen)
    }
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    let now = scheduler.now
    lock.lock()
    let action = state.received(value, now: now)
    lock.unlock()
    perform(action)
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    let action = state.completed(completion)
    lock.unlock()
    perform(action)
  }

  /// Schedules what `action` asks for. Called without the lock.
  @inlinable
  func perform(
    _ action: ThrottleState<Downstream.Input, Context.SchedulerTimeType, Downstream.Failure>
      .Action
  ) {
    switch action {
    case .none:
      return
    case .schedulePublication(let due?):
      scheduler.schedule(after: due, tolerance: scheduler.minimumTolerance, options: nil) {
        [self] in publish()
      }
    case .schedulePublication(nil):
      scheduler.schedule(options: nil) { [self] in publish() }
    case .scheduleCompletion:
      scheduler.schedule(options: nil) { [self] in complete() }
    }
  }

  /// Publishes the held value, if the downstream has demand for it, and the completion if it
  /// waited for this publication.
  @inlinable
  func publish() {
    let now = scheduler.now
    lock.lock()
    guard !state.isCompleting else {
      lock.unlock()
      complete()
      return
    }
    guard let value = state.publicationDue(now: now) else {
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

  /// Delivers the held value (with demand for it), then the completion.
  @inlinable
  func complete() {
    lock.lock()
    guard let (value, completion) = state.completionDue() else {
      lock.unlock()
      return
    }
    var dropped: Downstream.Input?
    if let value {
      if delivery.unusedDemand > 0 { delivery.push(value) } else { dropped = value }
    }
    delivery.finishAfterWaitingValues(completion)
    lock.unlock()
    withExtendedLifetime(dropped) {}
    drain()
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    let ended = state.end()
    effects.cancel(ended.upstream)
    effects.release(ended.dropped)
  }
}
