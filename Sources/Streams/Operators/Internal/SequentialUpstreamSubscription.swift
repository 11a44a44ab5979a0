/// The subscription of operators that move their downstream from one upstream to the next
/// (`append`/`prepend`, `catch`, `tryCatch`, `retry`).
///
/// It keeps the downstream's outstanding demand across upstreams: a new upstream is asked for
/// whatever the downstream still wants. Calls into the downstream come from one upstream at a time,
/// so they never overlap; the lock only guards state and is released before calling out.
@usableFromInline
internal final class SequentialUpstreamSubscription<Downstream: Subscriber>: Subscription,
  OperatorNamed
{
  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the downstream (nil once terminated), whether it was handed this
  // subscription, the current upstream (nil between upstreams) and the demand the downstream
  // requested and was not yet served.
  @usableFromInline var downstream: Downstream?
  @usableFromInline var isStarted = false
  @usableFromInline var upstream: (any Subscription)?
  @usableFromInline var demand = Subscribers.Demand.none

  /// The operator this subscription serves, for ``OperatorNamed``.
  @usableFromInline let operatorName: String

  @inlinable
  init(downstream: Downstream, name: String) {
    operatorName = name
    self.downstream = downstream
  }

  /// Hands this subscription to the downstream before any upstream subscribes. Without this
  /// call, the downstream is handed it when the first upstream subscription arrives (`retry`).
  @inlinable
  func start() {
    lock.lock()
    isStarted = true
    let downstream = self.downstream
    lock.unlock()
    downstream?.receive(subscription: self)
  }

  /// Whether the downstream is still attached.
  @inlinable
  var isActive: Bool {
    lock.lock()
    defer { lock.unlock() }
    return downstream != nil
  }

  /// Makes `subscription` the current upstream and asks it for the outstanding demand.
  @inlinable
  func attach(_ subscription: any Subscription) {
    lock.lock()
    guard downstream != nil, upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    if !isStarted, let downstream {
      isStarted = true
      lock.unlock()
      downstream.receive(subscription: self)
      return
    }
    let outstanding = demand
    lock.unlock()
    if outstanding > 0 {
      subscription.request(outstanding)
    }
  }

  /// Forgets the current upstream, which completed.
  @inlinable
  func detach() {
    lock.lock()
    let previous = upstream
    upstream = nil
    lock.unlock()
    withExtendedLifetime(previous) {}
  }

  @inlinable
  func forward(_ input: Downstream.Input) -> Subscribers.Demand {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return .none
    }
    demand -= 1
    lock.unlock()
    let more = downstream.receive(input)
    if more > 0 {
      lock.lock()
      demand += more
      lock.unlock()
    }
    return more
  }

  /// Completes the downstream once and releases everything.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    self.downstream = nil
    let needsSubscription = !isStarted
    isStarted = true
    let previous = upstream
    upstream = nil
    lock.unlock()
    withExtendedLifetime(previous) {}
    if needsSubscription {
      downstream.receive(subscription: Subscriptions.empty)
    }
    downstream.receive(completion: completion)
  }

  @inlinable
  func request(_ more: Subscribers.Demand) {
    guard more > 0 else { return }
    lock.lock()
    guard downstream != nil else {
      lock.unlock()
      return
    }
    demand += more
    let upstream = self.upstream
    lock.unlock()
    upstream?.request(more)
  }

  @inlinable
  func cancel() {
    lock.lock()
    let downstream = self.downstream
    let upstream = self.upstream
    self.downstream = nil
    self.upstream = nil
    lock.unlock()
    upstream?.cancel()
    withExtendedLifetime(downstream) {}
  }
}

/// The subscriber a ``SequentialUpstreamSubscription`` attaches to each of its upstreams; the completion goes to
/// a closure that decides what comes next.
@usableFromInline
internal struct SequentialUpstreamInput<Input, Failure: Error, Downstream: Subscriber>: Subscriber
where Downstream.Input == Input {
  @usableFromInline let relay: SequentialUpstreamSubscription<Downstream>
  @usableFromInline let onCompletion: (Subscribers.Completion<Failure>) -> Void
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @inlinable
  init(
    _ relay: SequentialUpstreamSubscription<Downstream>,
    onCompletion: @escaping (Subscribers.Completion<Failure>) -> Void
  ) {
    self.relay = relay
    self.onCompletion = onCompletion
  }

  @inlinable
  func receive(subscription: any Subscription) {
    relay.attach(subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    relay.forward(input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    relay.detach()
    onCompletion(completion)
  }
}
