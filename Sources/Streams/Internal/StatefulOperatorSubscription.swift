/// Base of the subscriptions that stateful operators (timed, combining, flattening, buffering)
/// give their downstream: a ``DeliveringSubscription`` whose subclasses keep their own state under
/// the same lock.
///
/// A subclass reacts to its upstreams by changing its state and `delivery` under `lock`, then
/// sends values with ``DeliveringSubscription/sendAndUnlock(_:effects:)`` or queues its completion
/// with ``DeliveringSubscription/finishAndUnlock(_:effects:)``; the hooks below tell it about the
/// downstream's demand and cancellation. The downstream reaches `request` and `cancel` through the
/// handlers of ``HandlerSubscription``, specialised where the chain is built.
@usableFromInline
internal class StatefulOperatorSubscription<Downstream: Subscriber>: HandlerSubscription,
  DeliveringSubscription
{
  // `lock` guards `delivery` and every subclass's mutable state. Those stored properties are
  // marked `@exclusivity(unchecked)`: the lock already serialises every access to them, and the
  // run-time exclusivity checks Swift makes on class properties otherwise cost about a fifth of
  // a timed or combining operator's delivery.
  @usableFromInline
  final let lock = StreamsLock()
  @usableFromInline
  @exclusivity(unchecked) final var delivery: DeliveryState<Downstream>

  @inlinable
  init(downstream: Downstream) {
    delivery = DeliveryState(downstream: downstream)
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: StatefulOperatorSubscription.self).add(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: StatefulOperatorSubscription.self).stop()
      })
  }

  @inlinable
  final func lockDelivery() { lock.lock() }

  @inlinable
  final func unlockDelivery() { lock.unlock() }

  /// The operator's name; each subclass gives its own.
  @usableFromInline
  override var operatorName: String { "Operator" }

  /// Downstream demand grew by `added` (already added to `delivery.demand`). Lock held.
  @inlinable
  func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {}

  /// A value was delivered downstream. Lock held.
  @inlinable
  func didDeliverValue(_ effects: inout DeferredEffects) {}

  /// The downstream cancelled: cancel upstreams and timers, release state. Lock held.
  @inlinable
  func didCancel(_ effects: inout DeferredEffects) {}

  @inlinable
  final func didDeliver(returning more: Subscribers.Demand, into effects: inout DeferredEffects) {
    didDeliverValue(&effects)
    if more > 0 { demandDidGrow(by: more, &effects) }
  }

  /// Queues `completion` after cancelling everything the operator holds (the work of
  /// ``didCancel(_:)``), then delivers. Entered with the lock held; returns with it released.
  @inlinable
  final func terminateAndUnlock(with completion: DeliveryState<Downstream>.Completion) {
    var effects = DeferredEffects()
    didCancel(&effects)
    finishAndUnlock(completion, effects: effects)
  }

  /// Hands this subscription to the downstream.
  @inlinable
  final func start() {
    startDelivery()
  }

  /// Adds the downstream's demand, tells the subclass, then delivers what it allows.
  @inlinable
  final func add(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    lock.lock()
    guard !delivery.isClosed else {
      lock.unlock()
      return
    }
    delivery.demand += demand
    var effects = DeferredEffects()
    demandDidGrow(by: demand, &effects)
    lock.unlock()
    effects.perform()
    drain()
  }

  /// The downstream cancelled: closes the delivery and lets the subclass cancel what it holds.
  @inlinable
  final func stop() {
    lock.lock()
    guard let closed = delivery.close() else {
      lock.unlock()
      return
    }
    var effects = DeferredEffects()
    didCancel(&effects)
    lock.unlock()
    effects.perform()
    withExtendedLifetime(closed) {}
  }
}
