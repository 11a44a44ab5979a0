/// The subscription a subject gives each subscriber.
///
/// Delivery runs through ``DeliveringSubscription``: calls into the subscriber never overlap, and
/// a value that arrives while a delivery is in progress waits for the delivering thread. What
/// happens to a value without demand depends on the ``SubjectKind``: `PassthroughSubject` and
/// `CurrentValueSubject` drop it, as Combine's subjects do (so a waiting value always has its
/// demand); the replay subject keeps it until the subscriber asks. No lock is held while calling
/// out.
@usableFromInline
internal final class SubjectSubscription<Downstream: Subscriber>: SubjectConduit<
  Downstream.Input, Downstream.Failure
>, DeliveringSubscription
{
  @usableFromInline
  override var operatorName: String { kind.operatorName }

  @usableFromInline typealias Output = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let kind: SubjectKind
  // Everything below is protected by the lock this object holds (see
  // `LockingHandlerSubscription`), which is also the delivery lock.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
  // runtime check would cost two calls per access in the code inlined into client modules.
  @exclusivity(unchecked) @usableFromInline var delivery: DeliveryState<Downstream>
  /// Set while the subscriber is receiving its subscription; a current value it asks for then is
  /// delivered inside its `request`, as Combine does.
  @exclusivity(unchecked) @usableFromInline var isStarting = true
  /// Whether the subscriber has asked for values (the subject is told once).
  @exclusivity(unchecked) @usableFromInline var hasRequested = false
  /// The send number of the current value delivered on the first demand; values offered with
  /// this number or an older one are not delivered again.
  @exclusivity(unchecked) @usableFromInline var replayedSequence: UInt64 = 0
  /// The subject, until the subscription ends.
  @exclusivity(unchecked) @usableFromInline var owner: (any SubjectConduitOwner<Output>)?
  /// The subject's core, until the subscription ends. Detaching and signalling demand go to it
  /// directly rather than through `owner`, so that they run code specialised for the subject.
  @exclusivity(unchecked) @usableFromInline var core: SubjectCore<Output, Failure>?

  @inlinable
  init(
    downstream: consuming Downstream, owner: any SubjectConduitOwner<Output>,
    core: SubjectCore<Output, Failure>, kind: SubjectKind
  ) {
    delivery = DeliveryState(downstream: consume downstream)
    // Deliveries wait until the subscriber has its subscription.
    delivery.isDelivering = true
    self.owner = owner
    self.core = core
    self.kind = kind
    super.init(
      offer: { conduit, value, sequence in
        unsafeDowncast(conduit, to: SubjectSubscription<Downstream>.self)
          .deliver(value, sequence: sequence)
      },
      finish: { conduit, completion in
        unsafeDowncast(conduit, to: SubjectSubscription<Downstream>.self).complete(completion)
      },
      request: { subscription, demand in
        unsafeDowncast(subscription, to: SubjectSubscription<Downstream>.self).add(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: SubjectSubscription<Downstream>.self).stop()
      })
  }

  @inlinable
  func lockDelivery() { lock() }

  @inlinable
  func unlockDelivery() { unlock() }

  /// Queues the values a replay subject replays, and its completion if it already completed,
  /// before the subscriber is attached.
  @inlinable
  func prefill(_ values: [Output], completion: Subscribers.Completion<Failure>?) {
    lock()
    for value in values { delivery.push(value) }
    if let completion {
      delivery.finish(completion)
      owner = nil
      core = nil
    }
    unlock()
  }

  /// Tells a subscriber that came after the subject completed: the empty subscription, then
  /// `completion`. Only called on a conduit the subject did not keep, before ``start()``.
  @inlinable
  func rejectAfterCompletion(_ completion: Subscribers.Completion<Failure>) {
    lock()
    owner = nil
    core = nil
    let closed = delivery.close()
    unlock()
    guard let downstream = closed?.downstream else { return }
    downstream.subscriber.receive(subscription: Subscriptions.empty)
    downstream.subscriber.receive(completion: completion)
  }

  /// Hands the subscription to the subscriber, then delivers what arrived meanwhile.
  @inlinable
  func start() {
    lock()
    guard let downstream = delivery.downstreamBox else {
      unlock()
      return
    }
    unlock()
    downstream.subscriber.receive(subscription: self)
    lock()
    isStarting = false
    delivery.isDelivering = false
    unlock()
    drain()
  }

  /// Delivers `value`, sent with send number `sequence` (0 for subjects that keep no value): at
  /// once if the subscriber is free, after the delivery in progress otherwise. Without demand
  /// for it, a passthrough or current-value subject's value is dropped.
  @inlinable
  func deliver(_ value: Output, sequence: UInt64) {
    lock()
    guard sequence > replayedSequence || sequence == 0,
      kind == .replay || delivery.unusedDemand > 0
    else {
      unlock()
      return
    }
    sendAndUnlock(value)
  }

  /// Delivers the subject's completion after the values already waiting (a replay subject's
  /// failure drops them).
  @inlinable
  func complete(_ completion: Subscribers.Completion<Failure>) {
    lock()
    owner = nil
    let core = self.core
    self.core = nil
    if kind == .replay {
      delivery.finish(completion)
    } else {
      delivery.finishAfterWaitingValues(completion)
    }
    unlock()
    withExtendedLifetime(core) {}
    drain()
  }

  /// Adds demand. The first demand tells the subject (which then asks its upstreams for values)
  /// and, for a `CurrentValueSubject`, delivers the current value — inside this call, even while
  /// the subscriber is still receiving its subscription.
  @inlinable
  func add(_ newDemand: Subscribers.Demand) {
    guard newDemand > 0 else { return }
    lock()
    guard !delivery.isClosed else {
      unlock()
      return
    }
    delivery.demand += newDemand
    let signalled = hasRequested ? nil : core
    var replay: Output?
    if !hasRequested {
      hasRequested = true
      // Read under this lock (a current-value subject never takes a conduit's lock while holding
      // its own), so that no concurrent offer slips between the demand and the replayed value.
      if kind == .currentValue, let current = owner?.currentValue() {
        replayedSequence = current.sequence
        replay = current.value
      }
    }
    if let replay {
      // While starting, the downstream is not lent to a delivering thread.
      if isStarting, let downstream = delivery.downstreamBox {
        delivery.demand -= 1
        unlock()
        let more = downstream.subscriber.receive(replay)
        lock()
        if !delivery.isClosed { delivery.demand += more }
        unlock()
      } else {
        sendAndUnlock(replay)
      }
    } else {
      let hasWaitingValues = delivery.bufferedCount > 0
      unlock()
      if hasWaitingValues { drain() }
    }
    signalled?.downstreamDidDemand()
  }

  @inlinable
  func stop() {
    lock()
    let owner = self.owner.take()
    let core = self.core.take()
    let closed = delivery.close()
    unlock()
    core?.detach(ObjectIdentifier(self))
    withExtendedLifetime((owner, closed)) {}
  }
}
