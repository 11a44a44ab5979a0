/// Base of the subscriptions that take values from several upstreams at once (merge,
/// combineLatest, the inner publishers of flatMap and switchToLatest): a pool of upstreams, each
/// asked for values as the downstream's demand allows.
@usableFromInline
internal class MergingSubscription<Downstream: Subscriber>:
  StatefulOperatorSubscription<Downstream>
{
  // Protected by the inherited `lock`: the upstreams still running.
  @usableFromInline
  @exclusivity(unchecked) final var merged: UpstreamPool

  @inlinable
  init(downstream: Downstream, merged: UpstreamPool = UpstreamPool()) {
    self.merged = merged
    super.init(downstream: downstream)
  }

  /// A subscription to a fixed set of `count` upstreams, with ids `0..<count`; with none, it
  /// finishes as soon as it starts.
  @inlinable
  init(downstream: Downstream, upstreams count: Int) {
    merged = UpstreamPool()
    super.init(downstream: downstream)
    for id in 0..<count { merged.reserve(id) }
    if count == 0 { delivery.finish(.finished) }
  }

  /// Takes the subscription of pooled upstream `id` and asks it for what the demand allows, or
  /// cancels it when it is no longer wanted.
  @inlinable
  final func merged(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    let effects = merged.subscribed(
      id, subscription, unused: delivery.unusedDemand, isLive: delivery.isOpen)
    lock.unlock()
    effects.perform()
  }

  /// Sends `value` from pooled upstream `id` downstream and asks that upstream for the next one
  /// as the demand allows.
  @inlinable
  final func merged(_ id: Int, didSend value: Downstream.Input) {
    lock.lock()
    guard
      let effects = merged.received(id, unused: delivery.unusedDemand, isLive: delivery.isOpen)
    else {
      lock.unlock()
      return
    }
    sendAndUnlock(value, effects: effects)
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    merged.refillAll(unused: delivery.unusedDemand, into: &effects)
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    effects.cancel(merged.removeAll())
  }
}
