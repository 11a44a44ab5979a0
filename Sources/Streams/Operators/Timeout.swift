extension Publisher {
  /// Ends the stream if the upstream stays silent for `interval`.
  ///
  /// The wait starts at subscription and restarts after every value. When it runs out, the
  /// upstream is cancelled and the downstream receives `customError()` as a failure, or a normal
  /// finish when `customError` is `nil`. Demand passes through to the upstream. As with Combine,
  /// values and the upstream's completion are delivered through `scheduler.schedule` (on the main
  /// queue with `DispatchQueue.main`), not on the upstream's thread.
  ///
  /// ```swift
  /// request.timeout(.seconds(5), scheduler: DispatchQueue.main) { URLError(.timedOut) }
  /// ```
  ///
  /// - Parameters:
  ///   - interval: the longest silence allowed.
  ///   - scheduler: the scheduler that measures the silence.
  ///   - options: scheduler options.
  ///   - customError: makes the failure to deliver on timeout; `nil` finishes normally.
  @inlinable
  public func timeout<S: Scheduler>(
    _ interval: S.SchedulerTimeType.Stride, scheduler: S, options: S.SchedulerOptions? = nil,
    customError: (() -> Failure)? = nil
  ) -> Publishers.Timeout<Self, S> {
    Publishers.Timeout(
      upstream: self, interval: interval, scheduler: scheduler, options: options,
      customError: customError)
  }
}

extension Publishers {
  /// A publisher that ends when its upstream stays silent too long.
  ///
  /// See ``Publisher/timeout(_:scheduler:options:customError:)`` for the semantics.
  public struct Timeout<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The longest silence allowed.
    public let interval: Context.SchedulerTimeType.Stride
    /// The scheduler that measures the silence.
    public let scheduler: Context
    /// Scheduler options.
    public let options: Context.SchedulerOptions?
    /// Makes the failure delivered on timeout; `nil` finishes normally.
    public let customError: (() -> Upstream.Failure)?

    /// A timeout on `upstream`.
    @inlinable
    public init(
      upstream: Upstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
      options: Context.SchedulerOptions?, customError: (() -> Upstream.Failure)?
    ) {
      self.upstream = upstream
      self.interval = interval
      self.scheduler = scheduler
      self.options = options
      self.customError = customError
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = TimeoutSubscription(
        downstream: subscriber, interval: interval, scheduler: scheduler, options: options,
        customError: customError)
      subscription.start()
      subscription.startWait()
      upstream.receive(subscriber: subscription.link(0))
    }
  }
}

/// The state of a timeout: the upstream and the generation of the current wait.
@usableFromInline
internal struct TimeoutState {
  @usableFromInline
  var upstream = UpstreamState()
  @usableFromInline
  var generation: UInt64 = 0

  @inlinable
  init() {}

  /// Starts a new wait; returns its generation, or nil once the upstream is over.
  @inlinable
  mutating func restartWait() -> UInt64? {
    guard !upstream.isFinished else { return nil }
    generation &+= 1
    return generation
  }

  /// Whether the wait of `generation` running out ends the stream (it is still the current wait
  /// and the upstream is not over); if so, the upstream to cancel.
  @inlinable
  mutating func waitEnded(generation: UInt64) -> (timedOut: Bool, upstream: (any Subscription)?) {
    guard !upstream.isFinished, generation == self.generation else { return (false, nil) }
    return (true, upstream.finish())
  }
}

/// The subscription of `timeout`: values and the completion pass through the scheduler; a
/// silence as long as the interval ends the stream.
@usableFromInline
internal final class TimeoutSubscription<Downstream: Subscriber, Context: Scheduler>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Timeout" }

  // Immutable configuration; `state` is protected by the inherited `lock`.
  @usableFromInline
  let interval: Context.SchedulerTimeType.Stride
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let customError: (() -> Downstream.Failure)?
  @usableFromInline
  @exclusivity(unchecked) var state = TimeoutState()

  @inlinable
  init(
    downstream: Downstream, interval: Context.SchedulerTimeType.Stride, scheduler: Context,
    options: Context.SchedulerOptions?, customError: (() -> Downstream.Failure)?
  ) {
    self.interval = interval
    self.scheduler = scheduler
    self.options = options
    self.customError = customError
    super.init(downstream: downstream)
  }

  @inlinable
  func startWait() {
    guard let generation = lock.withLock({ state.restartWait() }) else { return }
    scheduler.schedule(
      after: scheduler.now.advanced(by: interval), tolerance: scheduler.minimumTolerance,
      options: options
    ) { [self] in
      waitEnded(generation: generation)
    }
  }

  @inlinable
  func waitEnded(generation: UInt64) {
    let (timedOut, upstream) = lock.withLock { state.waitEnded(generation: generation) }
    guard timedOut else { return }
    upstream?.cancel()
    let completion: Subscribers.Completion<Downstream.Failure> =
      customError.map { .failure($0()) } ?? .finished
    lock.lock()
    finishAndUnlock(completion)
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription) {
      state.upstream.attach(subscription, isWanted: delivery.isOpen)
    }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    state.upstream.request(added, into: &effects)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    guard !lock.withLock({ state.upstream.isFinished }) else { return }
    startWait()
    scheduler.schedule(options: options) { [self] in
      lock.lock()
      guard !delivery.isClosed else {
        lock.unlock()
        return
      }
      sendAndUnlock(value)
    }
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard !state.upstream.isFinished else {
      lock.unlock()
      return
    }
    let finished = state.upstream.finish()
    lock.unlock()
    withExtendedLifetime(finished) {}
    scheduler.schedule(options: options) { [self] in
      lock.lock()
      finishAndUnlock(completion)
    }
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    effects.cancel(state.upstream.finish())
  }
}
