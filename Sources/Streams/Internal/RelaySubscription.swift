/// Work an operator does after unlocking: upstream requests and cancels, then other actions.
@usableFromInline
internal struct RelayEffects {
  @usableFromInline
  var requests: [(any Subscription, Subscribers.Demand)] = []
  @usableFromInline
  var cancels: [any Subscription] = []
  @usableFromInline
  var actions: [() -> Void] = []

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { requests.isEmpty && cancels.isEmpty && actions.isEmpty }

  @inlinable
  mutating func request(_ demand: Subscribers.Demand, from subscription: any Subscription) {
    if demand > 0 { requests.append((subscription, demand)) }
  }

  @inlinable
  mutating func cancel(_ subscription: (any Subscription)?) {
    if let subscription { cancels.append(subscription) }
  }

  @inlinable
  mutating func run(_ action: @escaping () -> Void) {
    actions.append(action)
  }

  /// Performs the work, in the order: cancels, requests, actions. Called without a lock held.
  @inlinable
  func perform() {
    for subscription in cancels { subscription.cancel() }
    for (subscription, demand) in requests { subscription.request(demand) }
    for action in actions { action() }
  }
}

/// The downstream side of a stateful operator: demand, the values waiting for it, the completion.
///
/// A failure is delivered as soon as the downstream is free, dropping values still waiting for
/// demand; a normal finish is delivered after them.
@usableFromInline
internal struct OutletState<Output, Failure: Error> {
  // Fields of fixed layout first, so that unspecialised code reaches them at static offsets;
  // the completion, whose layout depends on `Failure`, comes last.
  @usableFromInline
  var demand = Subscribers.Demand.none
  @usableFromInline
  var head = 0
  /// The number of values waiting for demand.
  @usableFromInline
  var bufferedCount = 0
  @usableFromInline
  var isDelivering = false
  /// Whether a completion has been queued; nothing is accepted after it.
  @usableFromInline
  var isCompleting = false
  @usableFromInline
  var queue: [Output] = []
  @usableFromInline
  var completion: Subscribers.Completion<Failure>?

  @inlinable
  init() {}

  /// Drops the oldest waiting value.
  @inlinable
  mutating func dropOldest() -> Output? {
    guard bufferedCount > 0 else { return nil }
    let value = queue[head]
    head += 1
    bufferedCount -= 1
    if bufferedCount == 0 {
      queue.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// Demand that values already waiting will not use.
  @inlinable
  var unusedDemand: Subscribers.Demand { demand - bufferedCount }

  @inlinable
  mutating func push(_ value: Output) {
    guard !isCompleting else { return }
    queue.append(value)
    bufferedCount += 1
  }

  @inlinable
  mutating func finish(_ completion: Subscribers.Completion<Failure>) {
    guard !isCompleting else { return }
    isCompleting = true
    self.completion = completion
    if case .failure = completion { removeAll() }
  }

  /// Queues a completion that is delivered after the values already waiting, even a failure.
  @inlinable
  mutating func finishAfterWaitingValues(_ completion: Subscribers.Completion<Failure>) {
    guard !isCompleting else { return }
    isCompleting = true
    self.completion = completion
  }

  @inlinable
  var canDeliver: Bool {
    (bufferedCount > 0 && demand > 0) || (isCompleting && bufferedCount == 0)
  }

  /// The next value, taking one unit of demand, if there is a value and demand for it.
  @inlinable
  mutating func popDeliverable() -> Output? {
    guard bufferedCount > 0, demand > 0 else { return nil }
    demand -= 1
    let value = queue[head]
    head += 1
    bufferedCount -= 1
    if bufferedCount == 0 {
      queue.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// The completion, once every value before it was delivered.
  @inlinable
  func readyCompletion() -> Subscribers.Completion<Failure>? {
    isCompleting && bufferedCount == 0 ? completion : nil
  }

  /// Empties the queue, returning what it held so it can be released after unlocking.
  @discardableResult
  @inlinable
  mutating func removeAll() -> [Output] {
    let dropped = Array(queue[head...])
    queue = []
    head = 0
    bufferedCount = 0
    return dropped
  }
}

/// Base of the subscriptions that stateful operators give their downstream.
///
/// It owns the lock, the downstream and an ``OutletState``; subclasses keep their own state
/// struct under the same lock, push values and the completion into `outlet` while holding it, and
/// call ``drain()`` after unlocking. Calls into the downstream never overlap and never exceed its
/// demand; no lock is held while calling out.
@usableFromInline
internal class RelaySubscription<Downstream: Subscriber>: Subscription, OperatorNamed,
  @unchecked Sendable
{
  @usableFromInline
  typealias Output = Downstream.Input
  @usableFromInline
  typealias Failure = Downstream.Failure

  @usableFromInline
  final let lock = StreamsLock()
  // Protected by `lock`: whether the downstream was completed or cancelled (a flag of fixed
  // layout, cheap to test in unspecialised code), the downstream (nil from then on), the outlet,
  // and the state of subclasses.
  @usableFromInline
  final var isEnded = false
  @usableFromInline
  final var downstream: Downstream?
  @usableFromInline
  final var outlet = OutletState<Downstream.Input, Downstream.Failure>()

  @inlinable
  init(downstream: Downstream) {
    self.downstream = downstream
  }

  /// The operator's name; each subclass gives its own.
  @usableFromInline
  var operatorName: String { "Relay" }

  /// Downstream demand grew by `added` (already added to `outlet.demand`). Lock held.
  @inlinable
  func demandDidGrow(by added: Subscribers.Demand, _ effects: inout RelayEffects) {}

  /// A value was delivered downstream. Lock held.
  @inlinable
  func didDeliver(_ effects: inout RelayEffects) {}

  /// The downstream cancelled; cancel upstreams and timers, release state. Lock held.
  @inlinable
  func didCancel(_ effects: inout RelayEffects) {}

  /// The completion is about to be delivered; release what is left. Lock held.
  @inlinable
  func willComplete(_ effects: inout RelayEffects) {}

  /// Hands this subscription to the downstream.
  @inlinable
  final func start() {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    outlet.isDelivering = true
    lock.unlock()
    downstream.receive(subscription: self)
    lock.lock()
    outlet.isDelivering = false
    lock.unlock()
    drain()
  }

  @inlinable
  final func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    lock.lock()
    guard !isEnded else {
      lock.unlock()
      return
    }
    outlet.demand += demand
    var effects = RelayEffects()
    demandDidGrow(by: demand, &effects)
    lock.unlock()
    effects.perform()
    drain()
  }

  @inlinable
  final func cancel() {
    lock.lock()
    guard let downstream else {
      lock.unlock()
      return
    }
    self.downstream = nil
    isEnded = true
    let dropped = outlet.removeAll()
    var effects = RelayEffects()
    didCancel(&effects)
    lock.unlock()
    effects.perform()
    withExtendedLifetime((downstream, dropped)) {}
  }

  /// Delivers what the outlet holds, as demand allows, unless another thread is delivering.
  @inlinable
  final func drain() {
    lock.lock()
    guard let downstream, !outlet.isDelivering, outlet.canDeliver else {
      lock.unlock()
      return
    }
    outlet.isDelivering = true
    deliverQueued(to: downstream)
  }

  /// Emits `value`: straight to the downstream when nothing is queued or being delivered and
  /// there is demand (the fast path), otherwise through the queue. Called with the lock held;
  /// performs `effects` after unlocking, then delivers.
  @inlinable
  final func emitAndUnlock(_ value: Output, effects: RelayEffects = RelayEffects()) {
    guard let downstream, !outlet.isDelivering, outlet.bufferedCount == 0, outlet.demand > 0,
      !outlet.isCompleting
    else {
      outlet.push(value)
      lock.unlock()
      effects.perform()
      drain()
      return
    }
    outlet.demand -= 1
    outlet.isDelivering = true
    lock.unlock()
    effects.perform()
    let more = downstream.receive(value)
    lock.lock()
    guard didReceive(returning: more) else { return }
    deliverQueued(to: downstream)
  }

  /// Books the demand a delivered value returned and runs the hooks. Called with the lock held;
  /// returns false (with the lock released) when the downstream went away meanwhile.
  @inlinable
  func didReceive(returning more: Subscribers.Demand) -> Bool {
    guard !isEnded else {
      outlet.isDelivering = false
      lock.unlock()
      return false
    }
    outlet.demand += more
    var effects = RelayEffects()
    didDeliver(&effects)
    if more > 0 { demandDidGrow(by: more, &effects) }
    guard !effects.isEmpty else { return true }
    lock.unlock()
    effects.perform()
    lock.lock()
    guard !isEnded else {
      outlet.isDelivering = false
      lock.unlock()
      return false
    }
    return true
  }

  /// The delivery loop. Called with the lock held and `isDelivering` set; returns unlocked.
  @inlinable
  func deliverQueued(to downstream: Downstream) {
    while true {
      guard outlet.canDeliver else {
        outlet.isDelivering = false
        lock.unlock()
        return
      }
      if let completion = outlet.readyCompletion() {
        self.downstream = nil
        isEnded = true
        outlet.isDelivering = false
        var effects = RelayEffects()
        willComplete(&effects)
        lock.unlock()
        effects.perform()
        downstream.receive(completion: completion)
        return
      }
      guard let value = outlet.popDeliverable() else {
        outlet.isDelivering = false
        lock.unlock()
        return
      }
      lock.unlock()
      let more = downstream.receive(value)
      lock.lock()
      guard didReceive(returning: more) else { return }
    }
  }
}

/// A stateful operator's subscription as seen by the subscribers it attaches to its upstreams.
@usableFromInline
internal protocol UpstreamOwner: AnyObject {
  associatedtype UpstreamOutput
  associatedtype UpstreamFailure: Error
  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription)
  @inlinable
  func upstream(_ index: Int, didSend value: UpstreamOutput)
  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<UpstreamFailure>)
}

/// The subscriber an operator attaches to its upstream number `index`.
///
/// Every demand goes through explicit requests, so `receive(_:)` returns `.none`.
@usableFromInline
internal struct UpstreamLink<Owner: UpstreamOwner>: Subscriber {
  @usableFromInline
  typealias Input = Owner.UpstreamOutput
  @usableFromInline
  typealias Failure = Owner.UpstreamFailure

  @usableFromInline
  let owner: Owner
  @usableFromInline
  let index: Int

  @inlinable
  init(owner: Owner, index: Int) {
    self.owner = owner
    self.index = index
  }
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  func receive(subscription: any Subscription) {
    owner.upstream(index, didSubscribe: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    owner.upstream(index, didSend: input)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    owner.upstream(index, didComplete: completion)
  }
}

/// An ``UpstreamLink`` for an upstream whose values the owner keeps type-erased (combineLatest,
/// zip over upstreams of different output types).
@usableFromInline
internal struct ErasedUpstreamLink<Owner: UpstreamOwner, Input>: Subscriber
where Owner.UpstreamOutput == Any {
  @usableFromInline
  typealias Failure = Owner.UpstreamFailure

  @usableFromInline
  let owner: Owner
  @usableFromInline
  let index: Int

  @inlinable
  init(owner: Owner, index: Int) {
    self.owner = owner
    self.index = index
  }
  @usableFromInline
  let combineIdentifier = CombineIdentifier()

  @inlinable
  func receive(subscription: any Subscription) {
    owner.upstream(index, didSubscribe: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    owner.upstream(index, didSend: input as Any)
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Failure>) {
    owner.upstream(index, didComplete: completion)
  }
}
