/// Base of the subscriptions of `flatMap` and `switchToLatest`: an upstream whose values become
/// inner publishers, and the inner publishers whose values are merged.
///
/// The operator finishes once the upstream and every inner publisher finished; any failure
/// cancels the rest and is delivered.
@usableFromInline
internal class FlatteningSubscription<Downstream: Subscriber>: MergingSubscription<Downstream> {
  // For the subclasses' conformances to `UpstreamOwner` and `SecondaryUpstreamOwner`: the upstream
  // and every inner publisher fail as the downstream does, and the inner publishers' values go
  // downstream as they are.
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure
  @usableFromInline
  typealias SecondaryOutput = Downstream.Input
  @usableFromInline
  typealias SecondaryFailure = Downstream.Failure

  // Protected by the inherited `lock`.
  @usableFromInline
  @exclusivity(unchecked) final var upstream = UpstreamState()

  /// Takes the upstream's subscription and asks it for `demand`, or cancels it when it is not
  /// wanted.
  @inlinable
  final func upstreamSubscribed(_ subscription: any Subscription, asking demand: Subscribers.Demand)
  {
    lock.attachSubscription(subscription, asking: demand) {
      upstream.attach(subscription, isWanted: delivery.isOpen)
    }
  }

  /// The upstream completed: a failure ends the operator; a finish ends it once no inner
  /// publisher is left. The subclasses' witness for ``UpstreamOwner``.
  @inlinable
  final func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>)
  {
    lock.lock()
    guard delivery.isOpen else {
      lock.unlock()
      return
    }
    _ = upstream.finish()
    guard case .finished = completion else {
      terminateAndUnlock(with: completion)
      return
    }
    guard merged.isEmpty else {
      lock.unlock()
      return
    }
    finishAndUnlock(.finished)
  }

  /// Inner publisher `id` completed: a failure ends the operator; a finish ends it once the
  /// upstream finished and no inner publisher is left, and otherwise asks the upstream for one
  /// more value when `asksForAnother`.
  @inlinable
  final func inner(
    _ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>,
    asksForAnother: Bool
  ) {
    lock.lock()
    guard delivery.isOpen, merged.contains(id) else {
      lock.unlock()
      return
    }
    _ = merged.remove(id)
    guard case .finished = completion else {
      terminateAndUnlock(with: completion)
      return
    }
    if upstream.isFinished && merged.isEmpty {
      finishAndUnlock(.finished)
      return
    }
    let more = asksForAnother ? upstream.subscription : nil
    lock.unlock()
    more?.request(.max(1))
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    super.didCancel(&effects)
    effects.cancel(upstream.finish())
  }
}
