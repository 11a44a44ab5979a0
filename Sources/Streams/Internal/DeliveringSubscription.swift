/// A subscription that delivers to one downstream through a ``DeliveryState`` guarded by its
/// lock: the delivery engine of the subjects, the stateful operators and the Datasync streams.
///
/// Calls into the downstream never overlap and never exceed its demand: a thread that finds a
/// delivery in progress leaves its value in the queue, and the delivering thread drains the queue
/// before it lets go. No lock is held while calling out.
///
/// Conforming types hold `delivery` as a stored property and change it only under the lock taken
/// by ``lockDelivery()`` (a subject's subscription keeps that lock in the object itself); the
/// methods here are `@inlinable`, so they are specialised with the conforming type where it is
/// used. Methods whose name ends in `AndUnlock` are entered with the lock held and
/// return with it released (an asymmetric pair kept for speed on the delivery path).
@usableFromInline
package protocol DeliveringSubscription: AnyObject {
  associatedtype Downstream: Subscriber

  /// Takes the lock that guards `delivery` and the state of the conforming type.
  func lockDelivery()
  /// Releases the lock taken by ``lockDelivery()``.
  func unlockDelivery()
  /// The downstream side, guarded by the delivery lock.
  var delivery: DeliveryState<Downstream> { get set }

  /// The downstream received a value and returned `more` (already added to the demand). Called
  /// with the lock held; calls out go into `effects`.
  func didDeliver(returning more: Subscribers.Demand, into effects: inout DeferredEffects)

  /// The downstream received its completion. Called without the lock.
  func didDeliverCompletion()
}

extension DeliveringSubscription {
  @inlinable
  package func didDeliver(returning more: Subscribers.Demand, into effects: inout DeferredEffects) {
  }

  @inlinable
  package func didDeliverCompletion() {}

  /// Delivers what the queue holds, as demand allows, unless another thread is delivering.
  @inlinable @inline(__always)
  package func drain() {
    lockDelivery()
    guard !delivery.isDelivering, delivery.canDeliver, let downstream = delivery.lendDownstream()
    else {
      unlockDelivery()
      return
    }
    delivery.isDelivering = true
    deliverQueuedAndUnlock(to: consume downstream)
  }

  /// Sends `value`: straight to the downstream when nothing is queued or being delivered and
  /// there is demand (the fast path), otherwise through the queue. Performs `effects` after
  /// unlocking, before delivering.
  @inlinable @inline(__always)
  package func sendAndUnlock(_ value: Downstream.Input, effects: DeferredEffects? = nil) {
    guard delivery.phase == .open, !delivery.isDelivering, delivery.bufferedCount == 0,
      delivery.demand > 0, let downstream = delivery.lendDownstream()
    else {
      delivery.push(value)
      unlockDelivery()
      effects?.perform()
      drain()
      return
    }
    delivery.demand -= 1
    delivery.isDelivering = true
    unlockDelivery()
    effects?.perform()
    let more = downstream.subscriber.receive(value)
    lockDelivery()
    guard bookDeliveryOrUnlock(returning: more) else { return }
    deliverQueuedAndUnlock(to: consume downstream)
  }

  /// Queues `completion` (see ``DeliveryState/finish(_:)``), performs `effects`, then delivers.
  @inlinable @inline(__always)
  package func finishAndUnlock(
    _ completion: DeliveryState<Downstream>.Completion, effects: DeferredEffects? = nil
  ) {
    delivery.finish(completion)
    unlockDelivery()
    effects?.perform()
    drain()
  }

  /// Books the demand a delivered value returned and calls ``didDeliver(returning:into:)``. Called
  /// with the lock held; returns false, with the lock released, when the delivery closed meanwhile.
  @inlinable @inline(__always)
  package func bookDeliveryOrUnlock(returning more: Subscribers.Demand) -> Bool {
    guard delivery.phase != .closed else {
      delivery.isDelivering = false
      unlockDelivery()
      return false
    }
    delivery.demand += more
    var effects = DeferredEffects()
    didDeliver(returning: more, into: &effects)
    guard !effects.isEmpty else { return true }
    unlockDelivery()
    effects.perform()
    lockDelivery()
    guard delivery.phase != .closed else {
      delivery.isDelivering = false
      unlockDelivery()
      return false
    }
    return true
  }

  /// The delivery loop: values as demand allows, then the completion once no value waits.
  /// Entered with the lock held, `isDelivering` set and the downstream lent by
  /// ``DeliveryState/lendDownstream()``, which it gives back (or releases, once the delivery
  /// closed); returns with the lock released.
  @inlinable @inline(__always)
  package func deliverQueuedAndUnlock(to downstream: consuming DownstreamBox<Downstream>) {
    while true {
      if let value = delivery.popDeliverable() {
        unlockDelivery()
        let more = downstream.subscriber.receive(value)
        lockDelivery()
        guard bookDeliveryOrUnlock(returning: more) else { return }
        continue
      }
      delivery.isDelivering = false
      guard let completion = delivery.takeReadyCompletion() else {
        delivery.returnDownstream(downstream)
        unlockDelivery()
        return
      }
      unlockDelivery()
      downstream.subscriber.receive(completion: completion)
      didDeliverCompletion()
      return
    }
  }
}

extension DeliveringSubscription where Self: Subscription {
  /// Hands this subscription to the downstream, holding back deliveries until it has it, then
  /// delivers what arrived meanwhile.
  @inlinable @inline(__always)
  package func startDelivery() {
    lockDelivery()
    guard let downstream = delivery.downstreamBox else {
      unlockDelivery()
      return
    }
    delivery.isDelivering = true
    unlockDelivery()
    downstream.subscriber.receive(subscription: self)
    lockDelivery()
    delivery.isDelivering = false
    unlockDelivery()
    drain()
  }
}
