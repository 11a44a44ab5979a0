/// What a subject offers its conduits: removal on cancel and, for `CurrentValueSubject`, the
/// current value with its send sequence number.
internal protocol SubjectConduitOwner<Output>: AnyObject, Sendable {
  associatedtype Output
  func detach(_ conduit: ObjectIdentifier)
  func currentValue() -> (value: Output, sequence: UInt64)?
}

/// A subject's link to one subscriber, seen by the subject without the subscriber's type.
///
/// It has no state of its own; subclasses guard theirs with their own lock.
internal class SubjectConduit<Output, Failure: Error>: @unchecked Sendable {
  func offer(_ value: Output, sequence: UInt64) {}
  func finish(_ completion: Subscribers.Completion<Failure>) {}
  func start() {}
}

/// The subscription a subject gives each subscriber.
///
/// Calls into the subscriber never overlap: a thread that finds a delivery in progress queues its
/// value (demand is reserved at once, so a value without demand is dropped, as subjects do) and
/// the delivering thread drains the queue before it returns. No lock is held while calling out.
internal final class SubjectSubscription<Downstream: Subscriber>: SubjectConduit<
  Downstream.Input, Downstream.Failure
>, Subscription, @unchecked Sendable
{
  typealias Output = Downstream.Input
  typealias Failure = Downstream.Failure

  private let lock = StreamsLock()
  // Everything below is protected by `lock`.
  private var downstream: Downstream?
  private var owner: (any SubjectConduitOwner<Output>)?
  private var demand = Subscribers.Demand.none
  private var isDelivering = true
  private var queue: [Output] = []
  private var queueHead = 0
  private var pendingCompletion: Subscribers.Completion<Failure>?
  private var wantsCurrentValue: Bool
  private var replayedSequence: UInt64 = 0

  init(downstream: Downstream, owner: any SubjectConduitOwner<Output>, replaysCurrentValue: Bool) {
    self.downstream = downstream
    self.owner = owner
    wantsCurrentValue = replaysCurrentValue
  }

  var combineIdentifier: CombineIdentifier { CombineIdentifier(self) }

  /// Hands the subscription to the subscriber, then delivers what arrived meanwhile.
  override func start() {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    lock.unlock()
    downstream.receive(subscription: self)
    drain(downstream, adding: .none)
  }

  override func offer(_ value: Output, sequence: UInt64) {
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

  override func finish(_ completion: Subscribers.Completion<Failure>) {
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

  func request(_ newDemand: Subscribers.Demand) {
    lock.lock()
    guard let downstream, newDemand > 0 else {
      lock.unlock()
      return
    }
    demand += newDemand
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
      return
    }
    if isDelivering {
      queue.append(value)
      lock.unlock()
      return
    }
    isDelivering = true
    lock.unlock()
    drain(downstream, adding: downstream.receive(value))
  }

  func cancel() {
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
  private func drain(_ downstream: Downstream, adding returnedDemand: Subscribers.Demand) {
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
