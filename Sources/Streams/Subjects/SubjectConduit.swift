/// What a subject offers its conduits: removal on cancel, the news that a subscriber asked for
/// values and, for `CurrentValueSubject`, the current value with its send sequence number.
@usableFromInline
internal protocol SubjectConduitOwner<Output>: AnyObject, Sendable {
  associatedtype Output
  func detach(_ conduit: ObjectIdentifier)
  func downstreamDidDemand()
  func currentValue() -> (value: Output, sequence: UInt64)?
}

/// A subject's link to one subscriber, seen by the subject without the subscriber's type.
///
/// It has no state of its own. The subject offers values and the completion through handlers
/// that `SubjectSubscription` creates in its `@inlinable` initialiser, so that delivery runs code
/// specialised for the subscriber in the module that subscribes (see `HandlerSubscription`).
@usableFromInline
internal class SubjectConduit<Output, Failure: Error>: HandlerSubscription, @unchecked Sendable {
  // Both handlers are set in `init` and never change; the subclass guards its own state.
  @usableFromInline let offerHandler: (SubjectConduit, Output, UInt64) -> Void
  @usableFromInline let finishHandler: (SubjectConduit, Subscribers.Completion<Failure>) -> Void

  @inlinable
  init(
    offer: @escaping (SubjectConduit, Output, UInt64) -> Void,
    finish: @escaping (SubjectConduit, Subscribers.Completion<Failure>) -> Void,
    request: @escaping (HandlerSubscription, Subscribers.Demand) -> Void,
    cancel: @escaping (HandlerSubscription) -> Void
  ) {
    offerHandler = offer
    finishHandler = finish
    super.init(request: request, cancel: cancel)
  }

  /// Offers a value sent with send number `sequence` (0 for subjects that keep no value).
  @inlinable
  final func offer(_ value: Output, sequence: UInt64) {
    offerHandler(self, value, sequence)
  }

  /// Delivers the subject's completion.
  @inlinable
  final func finish(_ completion: Subscribers.Completion<Failure>) {
    finishHandler(self, completion)
  }
}

/// The subscription a subject gives each subscriber.
///
/// Calls into the subscriber never overlap: a thread that finds a delivery in progress queues its
/// value (demand is reserved at once, so a value without demand is dropped, as subjects do) and
/// the delivering thread drains the queue before it returns. No lock is held while calling out.
@usableFromInline
internal final class SubjectSubscription<Downstream: Subscriber>: SubjectConduit<
  Downstream.Input, Downstream.Failure
>, @unchecked Sendable
{
  @usableFromInline
  override var operatorName: String {
    wantsCurrentValueAtStart ? "CurrentValueSubject" : "PassthroughSubject"
  }

  /// Whether the subject gives its current value (a `CurrentValueSubject`).
  @usableFromInline let wantsCurrentValueAtStart: Bool

  @usableFromInline typealias Output = Downstream.Input
  @usableFromInline typealias Failure = Downstream.Failure

  @usableFromInline let lock = StreamsLock()
  // Everything below is protected by `lock`.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
  // runtime check would cost two calls per access in the code inlined into client modules.
  @exclusivity(unchecked) @usableFromInline var demand = Subscribers.Demand.none
  @exclusivity(unchecked) @usableFromInline var isDelivering = true
  /// Set while the subscriber is receiving its subscription; a current value it asks for then is
  /// delivered inside its `request`, as Combine does.
  @exclusivity(unchecked) @usableFromInline var isStarting = true
  @exclusivity(unchecked) @usableFromInline var hasSignalledDemand = false
  @exclusivity(unchecked) @usableFromInline var wantsCurrentValue: Bool
  @exclusivity(unchecked) @usableFromInline var replayedSequence: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var queueHead = 0
  @exclusivity(unchecked) @usableFromInline var queue: [Output] = []
  @exclusivity(unchecked) @usableFromInline var owner: (any SubjectConduitOwner<Output>)?
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var pendingCompletion: Subscribers.Completion<Failure>?

  @inlinable
  init(downstream: Downstream, owner: any SubjectConduitOwner<Output>, replaysCurrentValue: Bool) {
    self.downstream = downstream
    self.owner = owner
    wantsCurrentValue = replaysCurrentValue
    wantsCurrentValueAtStart = replaysCurrentValue
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

  /// Hands the subscription to the subscriber, then delivers what arrived meanwhile.
  @inlinable
  func start() {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    lock.unlock()
    downstream.receive(subscription: self)
    lock.lock()
    isStarting = false
    lock.unlock()
    drain(downstream, adding: .none)
  }

  /// Delivers `value` if the subscriber has demand for it, or queues it behind a delivery in
  /// progress.
  @inlinable
  func deliver(_ value: Output, sequence: UInt64) {
    lock.lock()
    guard let downstream, demand > 0, sequence > replayedSequence || sequence == 0 else {
      lock.unlock()
      return
    }
    demand -= 1
    if isDelivering {
      queue.append(value)
      lock.unlock()
      return
    }
    isDelivering = true
    lock.unlock()
    drain(downstream, adding: downstream.receive(value))
  }

  /// Delivers the completion, or leaves it for the delivery in progress to deliver.
  @inlinable
  func complete(_ completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    owner = nil
    if isDelivering {
      pendingCompletion = completion
      lock.unlock()
      return
    }
    self.downstream = nil
    lock.unlock()
    downstream.receive(completion: completion)
  }

  /// Adds demand and, on the first demand of a replaying subscription, delivers the current value
  /// (inside this call, even while the subscriber is still receiving its subscription). The first
  /// demand then tells the subject, which asks its upstreams for values.
  @inlinable
  func add(_ newDemand: Subscribers.Demand) {
    guard let owner = addAndReplay(newDemand) else { return }
    owner.downstreamDidDemand()
  }

  /// The work of ``add(_:)`` before the subject is told; returns the subject on the first demand.
  @inlinable
  func addAndReplay(_ newDemand: Subscribers.Demand) -> (any SubjectConduitOwner<Output>)? {
    lock.lock()
    guard let downstream, newDemand > 0 else {
      lock.unlock()
      return nil
    }
    demand += newDemand
    var toSignal: (any SubjectConduitOwner<Output>)?
    if !hasSignalledDemand {
      hasSignalledDemand = true
      toSignal = owner
    }
    var replay: Output?
    if wantsCurrentValue, let owner {
      // Read under this lock (the owner never takes a conduit's lock while holding its own), so
      // that no concurrent offer slips between the demand and the replayed value.
      wantsCurrentValue = false
      if let current = owner.currentValue() {
        replayedSequence = current.sequence
        replay = current.value
        demand -= 1
      }
    }
    guard let value = replay else {
      lock.unlock()
      return toSignal
    }
    if isStarting {
      lock.unlock()
      let more = downstream.receive(value)
      lock.lock()
      if self.downstream != nil { demand += more }
      lock.unlock()
      return toSignal
    }
    if isDelivering {
      queue.append(value)
      lock.unlock()
      return toSignal
    }
    isDelivering = true
    lock.unlock()
    drain(downstream, adding: downstream.receive(value))
    return toSignal
  }

  @inlinable
  func stop() {
    lock.lock()
    let owner = self.owner
    let downstream = self.downstream
    self.downstream = nil
    self.owner = nil
    let queued = queue
    queue = []
    queueHead = 0
    pendingCompletion = nil
    lock.unlock()
    owner?.detach(ObjectIdentifier(self))
    withExtendedLifetime((downstream, queued)) {}
  }

  /// Delivers queued values and a pending completion until nothing is left, then stops delivering.
  @inlinable
  func drain(_ downstream: Downstream, adding returnedDemand: Subscribers.Demand) {
    var more = returnedDemand
    while true {
      lock.lock()
      if self.downstream == nil {
        isDelivering = false
        lock.unlock()
        return
      }
      demand += more
      if queueHead < queue.count {
        let value = queue[queueHead]
        queueHead += 1
        if queueHead == queue.count {
          queue.removeAll(keepingCapacity: true)
          queueHead = 0
        }
        lock.unlock()
        more = downstream.receive(value)
        continue
      }
      isDelivering = false
      if let completion = pendingCompletion {
        pendingCompletion = nil
        self.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion)
        return
      }
      lock.unlock()
      return
    }
  }
}
