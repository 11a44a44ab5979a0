/// What the first value of the other publisher does to an ``UntilOutputSubscription``.
@usableFromInline
internal enum UntilOutputRole: Sendable {
  /// `prefix(untilOutputFrom:)`: it finishes the stream.
  case prefix
  /// `drop(untilOutputFrom:)`: it opens the gate; values before it are dropped.
  case drop
}

/// The subscription of `prefix(untilOutputFrom:)` and `drop(untilOutputFrom:)`, with Combine's
/// demand: the downstream's requests go to the upstream as they are, a value that passes goes
/// straight to the downstream and the demand it returns goes back to the upstream, a dropped
/// value takes its demand with it, and the other publisher is asked for one value.
///
/// It is its upstream's subscriber. Calls into the downstream never overlap: a completion caused
/// by the other publisher while a value is being delivered waits for that call to return.
@usableFromInline
internal final class UntilOutputSubscription<Input, Other: Publisher, Downstream: Subscriber>:
  Subscriber, Subscription, OperatorNamed, SecondaryUpstreamOwner
where Downstream.Input == Input {
  @usableFromInline
  typealias Failure = Downstream.Failure

  /// Where the subscription stands with its downstream.
  @usableFromInline
  enum Phase {
    case running
    /// A value is being delivered.
    case delivering
    /// A completion waits for the value being delivered.
    case completing(Subscribers.Completion<Downstream.Failure>)
    /// The downstream completed or cancelled.
    case ended
  }

  @usableFromInline
  var operatorName: String { role == .prefix ? "PrefixUntilOutput" : "DropUntilOutput" }

  @usableFromInline let role: UntilOutputRole
  /// The downstream failure for a failure of the other publisher before its first value; nil:
  /// such a failure is ignored.
  @usableFromInline let otherFailure: ((Other.Failure) -> Downstream.Failure)?
  @usableFromInline let downstream: Downstream
  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: where the delivery stands, the upstream, the other publisher, and
  // whether the other publisher has published.
  @usableFromInline var phase = Phase.running
  @usableFromInline var upstream = UpstreamState()
  @usableFromInline var other = UpstreamState()
  @usableFromInline var hasTriggered = false

  @inlinable
  init(
    downstream: Downstream, role: UntilOutputRole,
    otherFailure: ((Other.Failure) -> Downstream.Failure)?
  ) {
    self.downstream = downstream
    self.role = role
    self.otherFailure = otherFailure
  }

  /// Hands this subscription to the downstream, then subscribes to `other` and `upstream`.
  @inlinable
  func subscribe<Upstream: Publisher>(_ upstream: Upstream, other: Other)
  where Upstream.Output == Input, Upstream.Failure == Downstream.Failure {
    downstream.receive(subscription: self)
    other.receive(subscriber: secondaryLink(0))
    upstream.receive(subscriber: self)
  }

  @inlinable
  var isEnded: Bool {
    if case .ended = phase { return true }
    return false
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock.attachSubscription(subscription) { upstream.attach(subscription, isWanted: !isEnded) }
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    guard case .running = phase, role == .prefix || hasTriggered else {
      lock.unlock()
      return .none
    }
    phase = .delivering
    lock.unlock()
    let more = downstream.receive(input)
    lock.lock()
    if case .completing(let completion) = phase {
      phase = .ended
      lock.unlock()
      downstream.receive(completion: completion)
      return .none
    }
    if case .delivering = phase { phase = .running }
    lock.unlock()
    return more
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard case .running = phase else {
      lock.unlock()
      return
    }
    phase = .ended
    _ = upstream.finish()
    let otherSubscription = other.finish()
    lock.unlock()
    otherSubscription?.cancel()
    downstream.receive(completion: completion)
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    var effects = DeferredEffects()
    lock.withLock { upstream.request(demand, into: &effects) }
    effects.perform()
  }

  @inlinable
  func cancel() {
    let (upstreamSubscription, otherSubscription) = lock.withLock {
      phase = .ended
      return (upstream.finish(), other.finish())
    }
    upstreamSubscription?.cancel()
    otherSubscription?.cancel()
  }

  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.attachSubscription(subscription, asking: .max(1)) {
      other.attach(subscription, isWanted: !isEnded)
    }
  }

  @inlinable
  func secondary(_ id: Int, didSend value: Other.Output) -> Subscribers.Demand {
    lock.lock()
    guard !isEnded, !hasTriggered else {
      lock.unlock()
      return .none
    }
    hasTriggered = true
    // The other publisher was asked for one value: it is released, not cancelled.
    _ = other.finish()
    guard role == .prefix else {
      lock.unlock()
      return .none
    }
    endAndUnlock(with: .finished)
    return .none
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Other.Failure>) {
    lock.lock()
    guard !isEnded, !hasTriggered, !other.isFinished else {
      lock.unlock()
      return
    }
    _ = other.finish()
    let ending: Subscribers.Completion<Downstream.Failure>?
    switch completion {
    case .finished:
      ending = role == .drop ? .finished : nil
    case .failure(let error):
      ending = otherFailure.map { .failure($0(error)) }
    }
    guard let ending else {
      lock.unlock()
      return
    }
    endAndUnlock(with: ending)
  }

  /// Cancels the upstream and delivers `completion`, after the value being delivered if there is
  /// one. Entered with the lock held; returns with it released.
  @inlinable
  func endAndUnlock(with completion: Subscribers.Completion<Downstream.Failure>) {
    let upstreamSubscription = upstream.finish()
    if case .delivering = phase {
      phase = .completing(completion)
      lock.unlock()
      upstreamSubscription?.cancel()
      return
    }
    phase = .ended
    lock.unlock()
    upstreamSubscription?.cancel()
    downstream.receive(completion: completion)
  }
}
