extension Publisher {
  /// Subscribes to the upstream, and sends it requests and cancels, on `scheduler`.
  ///
  /// Values and the completion are delivered wherever the upstream produces them; combine with
  /// `receive(on:)` to move delivery too. Once the downstream cancelled, nothing more reaches it
  /// (the cancel itself reaches the upstream later, on `scheduler`), and only the first completion
  /// of the upstream is passed on.
  ///
  /// ```swift
  /// expensiveWork.subscribe(on: DispatchQueue.global()).receive(on: DispatchQueue.main)
  /// ```
  @inlinable
  public func subscribe<S: Scheduler>(
    on scheduler: S, options: S.SchedulerOptions? = nil
  ) -> Publishers.SubscribeOn<Self, S> {
    Publishers.SubscribeOn(upstream: self, scheduler: scheduler, options: options)
  }
}

extension Publishers {
  /// A publisher that subscribes to its upstream on a scheduler.
  public struct SubscribeOn<Upstream: Publisher, Context: Scheduler>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The scheduler that subscribes, requests and cancels.
    public let scheduler: Context
    /// Scheduler options.
    public let options: Context.SchedulerOptions?

    /// `upstream` subscribed to on `scheduler`.
    @inlinable
    public init(upstream: Upstream, scheduler: Context, options: Context.SchedulerOptions?) {
      self.upstream = upstream
      self.scheduler = scheduler
      self.options = options
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let upstream = self.upstream
      let inner = SubscribeOnSubscriber(
        downstream: subscriber, scheduler: scheduler, options: options)
      scheduler.schedule(options: options) { upstream.receive(subscriber: inner) }
    }
  }
}

/// Forwards events downstream and moves requests and cancels to the scheduler.
@usableFromInline
internal final class SubscribeOnSubscriber<Downstream: Subscriber, Context: Scheduler>: Subscriber,
  Subscription, OperatorNamed
{
  @usableFromInline
  var operatorName: String { "SubscribeOn" }

  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  let downstream: Downstream
  @usableFromInline
  let scheduler: Context
  @usableFromInline
  let options: Context.SchedulerOptions?
  @usableFromInline
  let lock = StreamsLock()
  // Protected by `lock`: the upstream subscription until cancel or completion, after which
  // nothing reaches the downstream.
  @usableFromInline
  @exclusivity(unchecked) var upstream = UpstreamState()

  @inlinable
  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.scheduler = scheduler
    self.options = options
  }

  @inlinable
  func receive(subscription: any Subscription) {
    guard lock.withLock({ upstream.attach(subscription) }) != nil else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    guard !lock.withLock({ upstream.isFinished }) else { return .none }
    return downstream.receive(input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard !upstream.isFinished else {
      lock.unlock()
      return
    }
    let finished = upstream.finish()
    lock.unlock()
    withExtendedLifetime(finished) {}
    downstream.receive(completion: completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard let subscription = lock.withLock({ upstream.subscription }) else { return }
    scheduler.schedule(options: options) { subscription.request(demand) }
  }

  @inlinable
  func cancel() {
    guard let subscription = lock.withLock({ upstream.finish() }) else { return }
    scheduler.schedule(options: options) { subscription.cancel() }
  }
}
