extension Publisher {
  /// Delivers values and the completion on `scheduler`.
  ///
  /// Demand and cancellation pass through to the upstream; each event is handed to the scheduler
  /// in arrival order, and calls into the downstream never overlap and keep that order, even on a
  /// concurrent queue. As with Combine, the subscription too is delivered through the scheduler:
  /// the downstream's first request reaches the upstream only once the scheduler ran, so values a
  /// subject sends before that are not delivered.
  ///
  /// As with Combine, every value received is forwarded (demand is the upstream's business, not
  /// policed again here), the demand a delivered value returns goes to the upstream, and events
  /// already handed to the scheduler before a cancel are still delivered; nothing arriving after
  /// the cancel is.
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber: ReceiveOnSubscription(
          downstream: subscriber, scheduler: scheduler, options: options))
    }
  }
}

/// The subscriber `receive(on:)` attaches to its upstream, and the subscription it gives the
/// downstream.
///
/// Events are queued in arrival order and one is handed to the scheduler per event; each
/// scheduled action releases one event, and whichever thread finds no delivery in progress
/// delivers the released events in order.
@usableFromInline
internal final class ReceiveOnSubscription<Downstream: Subscriber, Context: Scheduler>:
  Subscriber, Subscription, OperatorNamed
{
  @usableFromInline
  var operatorName: String { "ReceiveOn" }

  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline
  enum Event {
    case subscription
    case value(Input)
    case completion(Subscribers.Completion<Failure>)
  }

  /// Where the subscriber stands with its upstream.
  @usableFromInline
  enum UpstreamPhase {
    case awaitingSubscription
    case subscribed(any Subscription)
    /// The upstream completed; its completion is queued.
    case completed
    /// The downstream cancelled; events already queued are still delivered.
    case cancelled
  }

  @usableFromInline let scheduler: Context
  @usableFromInline let options: Context.SchedulerOptions?
  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the downstream (released after its completion), where the upstream
  // stands, the events waiting (oldest at `head`), how many of them their scheduled action
  // released, and whether a thread is delivering.
  @usableFromInline var downstream: Downstream?
  @usableFromInline var upstream = UpstreamPhase.awaitingSubscription
  @usableFromInline var events: [Event] = []
  @usableFromInline var head = 0
  @usableFromInline var released = 0
  @usableFromInline var isDelivering = false

  @inlinable
  init(downstream: Downstream, scheduler: Context, options: Context.SchedulerOptions?) {
    self.downstream = downstream
    self.scheduler = scheduler
    self.options = options
  }

  /// The upstream subscription while it may still be asked for values.
  @inlinable
  var liveUpstream: (any Subscription)? {
    if case .subscribed(let subscription) = upstream { return subscription }
    return nil
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock.lock()
    guard downstream != nil, case .awaitingSubscription = upstream else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = .subscribed(subscription)
    events.append(.subscription)
    lock.unlock()
    scheduler.schedule(options: options) { [self] in
      releaseOne()
    }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    enqueue(.value(input))
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    enqueue(.completion(completion))
  }

  /// Queues `event` and hands one release to the scheduler; nothing is queued after the
  /// completion or a cancel.
  @inlinable
  func enqueue(_ event: Event) {
    lock.lock()
    switch upstream {
    case .completed, .cancelled:
      lock.unlock()
      return
    case .awaitingSubscription, .subscribed:
      break
    }
    var finished: (any Subscription)?
    if case .completion = event {
      finished = liveUpstream
      upstream = .completed
    }
    events.append(event)
    lock.unlock()
    withExtendedLifetime(finished) {}
    scheduler.schedule(options: options) { [self] in
      releaseOne()
    }
  }

  /// Releases the oldest unreleased event and delivers, unless another thread is delivering.
  @inlinable
  func releaseOne() {
    lock.lock()
    released += 1
    guard !isDelivering else {
      lock.unlock()
      return
    }
    isDelivering = true
    while released > 0, head < events.count, let downstream {
      let event = events[head]
      head += 1
      released -= 1
      if head == events.count {
        events.removeAll(keepingCapacity: true)
        head = 0
      }
      lock.unlock()
      switch event {
      case .subscription:
        downstream.receive(subscription: self)
        lock.lock()
      case .value(let value):
        let more = downstream.receive(value)
        if more > 0 {
          lock.withLock { liveUpstream }?.request(more)
        }
        lock.lock()
      case .completion(let completion):
        downstream.receive(completion: completion)
        lock.lock()
        self.downstream = nil
        events = []
        head = 0
      }
    }
    isDelivering = false
    lock.unlock()
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    lock.withLock { liveUpstream }?.request(demand)
  }

  @inlinable
  func cancel() {
    let subscription = lock.withLock {
      defer { upstream = .cancelled }
      return liveUpstream
    }
    subscription?.cancel()
  }
}
