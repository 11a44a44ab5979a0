/// How an operator driven by another publisher reacts to it.
@usableFromInline
internal enum OtherPublisherRole {
  /// `prefix(untilOutputFrom:)`: the other's first value finishes the stream.
  case prefixUntil
  /// `drop(untilOutputFrom:)`: values pass once the other has published.
  case dropUntil
  /// `withLatestFrom`: each value is combined with the other's latest value.
  case withLatest
}

/// The subscription of the operators driven by another publisher: `prefix(untilOutputFrom:)`,
/// `drop(untilOutputFrom:)` and `withLatestFrom`.
///
/// Demand passes through to the upstream; a value the operator swallows (before the trigger, or
/// without a latest value) is replaced by a request for one more. `select` turns an upstream
/// value and the other's latest value into the output, or nil to swallow it; it may be user code
/// and is called without the lock.
@usableFromInline
internal final class OtherPublisherSubscription<Value, Other: Publisher, Downstream: Subscriber>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner, SecondaryUpstreamOwner
{
  @usableFromInline
  override var operatorName: String {
    switch role {
    case .prefixUntil: "PrefixUntilOutput"
    case .dropUntil: "DropUntilOutput"
    case .withLatest: "WithLatestFrom"
    }
  }

  @usableFromInline
  typealias UpstreamOutput = Value
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure
  @usableFromInline
  typealias SecondaryOutput = Other.Output
  @usableFromInline
  typealias SecondaryFailure = Other.Failure

  // Immutable configuration. Protected by the inherited `lock`: the upstream, the other
  // publisher, and the other's latest value.
  @usableFromInline
  let role: OtherPublisherRole
  @usableFromInline
  let select: (Value, Other.Output?) -> Downstream.Input?
  @usableFromInline
  let failure: ((Other.Failure) -> Downstream.Failure)?
  @usableFromInline
  var upstream = UpstreamState()
  @usableFromInline
  var other = UpstreamState()
  @usableFromInline
  var latest: Other.Output?

  @inlinable
  init(
    downstream: Downstream, role: OtherPublisherRole,
    select: @escaping (Value, Other.Output?) -> Downstream.Input?,
    failure: ((Other.Failure) -> Downstream.Failure)?
  ) {
    self.role = role
    self.select = select
    self.failure = failure
    super.init(downstream: downstream)
  }

  /// Subscribes to `other`, then to `upstream`.
  @inlinable
  func subscribe<Upstream: Publisher>(_ upstream: Upstream, other: Other)
  where Upstream.Output == Value, Upstream.Failure == Downstream.Failure {
    start()
    other.receive(subscriber: secondaryLink(0))
    upstream.receive(subscriber: link(0))
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard let demand = upstream.attach(subscription, isWanted: delivery.isOpen) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    upstream.request(added, into: &effects)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Value) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    let latest = self.latest
    lock.unlock()
    let output = select(value, latest)
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    if let output {
      sendAndUnlock(output)
    } else {
      let subscription = upstream.subscription
      lock.unlock()
      subscription?.request(.max(1))
    }
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    _ = upstream.finish()
    var effects = DeferredEffects()
    end(&effects)
    finishAndUnlock(completion, effects: effects)
  }

  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard other.attach(subscription, isWanted: delivery.isOpen) != nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    lock.unlock()
    subscription.request(role == .withLatest ? .unlimited : .max(1))
  }

  @inlinable
  func secondary(_ id: Int, didSend value: Other.Output) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    switch role {
    case .prefixUntil:
      var effects = DeferredEffects()
      end(&effects)
      finishAndUnlock(.finished, effects: effects)
    case .dropUntil:
      guard latest == nil else {
        lock.unlock()
        return
      }
      latest = value
      let subscription = other.finish()
      lock.unlock()
      subscription?.cancel()
    case .withLatest:
      latest = value
      lock.unlock()
    }
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Other.Failure>) {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    _ = other.finish()
    let ending: Subscribers.Completion<Downstream.Failure>?
    switch completion {
    case .failure(let error):
      ending = failure.map { .failure($0(error)) }
    case .finished:
      ending = role == .dropUntil && latest == nil ? .finished : nil
    }
    guard let ending else {
      lock.unlock()
      return
    }
    var effects = DeferredEffects()
    end(&effects)
    finishAndUnlock(ending, effects: effects)
  }

  /// Cancels the upstream and the other publisher, releases the latest value. Lock held.
  @inlinable
  func end(_ effects: inout DeferredEffects) {
    effects.cancel(upstream.finish())
    effects.cancel(other.finish())
    effects.release(latest)
    latest = nil
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    end(&effects)
  }
}
