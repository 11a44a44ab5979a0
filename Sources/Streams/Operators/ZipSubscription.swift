/// The state of a zip: the values of each upstream waiting for a partner, and which finished.
@usableFromInline
internal struct ZipState {
  @usableFromInline
  var slots = InnerSlots()
  @usableFromInline
  var queues: [[Any]]
  @usableFromInline
  var finished: [Bool]
  @usableFromInline
  var isDone = false

  @inlinable
  init(count: Int) {
    queues = Array(repeating: [], count: count)
    finished = Array(repeating: false, count: count)
    for id in 0..<count { slots.reserve(id) }
  }

  @usableFromInline
  internal enum Ending<Failure: Error> {
    case none
    case finish(cancelling: [any Subscription])
    case fail(Failure, cancelling: [any Subscription])
  }

  /// Records `value` from upstream `id`; a complete tuple when every upstream has a value.
  @inlinable
  mutating func received(_ value: Any, from id: Int) -> [Any]? {
    guard !isDone, slots.consume(id) else { return nil }
    queues[id].append(value)
    guard queues.allSatisfy({ !$0.isEmpty }) else { return nil }
    return queues.indices.map { queues[$0].removeFirst() }
  }

  /// Whether an upstream that finished has nothing left to pair, so no tuple can come.
  @inlinable
  mutating func finishIfExhausted() -> Ending<Never> {
    guard !isDone else { return .none }
    for id in queues.indices where finished[id] && queues[id].isEmpty {
      isDone = true
      queues = []
      return .finish(cancelling: slots.removeAll())
    }
    return .none
  }

  @inlinable
  mutating func completed<Failure>(
    _ id: Int, with completion: Subscribers.Completion<Failure>
  ) -> Ending<Failure> {
    guard !isDone, slots.contains(id) else { return .none }
    _ = slots.remove(id)
    switch completion {
    case .finished:
      finished[id] = true
      if case .finish(let others) = finishIfExhausted() { return .finish(cancelling: others) }
      return .none
    case .failure(let error):
      isDone = true
      queues = []
      return .fail(error, cancelling: slots.removeAll())
    }
  }

  @inlinable
  mutating func end() -> [any Subscription] {
    isDone = true
    queues = []
    return slots.removeAll()
  }
}

/// The subscription of every zip: values are kept type-erased and combined into the output by
/// `combine` (an internal cast, never user code).
@usableFromInline
internal final class ZipSubscription<Downstream: Subscriber>: RelaySubscription<Downstream>,
  UpstreamOwner, @unchecked Sendable
{
  @usableFromInline
  override var operatorName: String { "Zip" }

  @usableFromInline
  typealias UpstreamOutput = Any
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure

  // `combine` is immutable; `state` is protected by the inherited `lock`.
  @usableFromInline
  let combine: ([Any]) -> Downstream.Input
  @usableFromInline
  var state: ZipState

  @inlinable
  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.combine = combine
    state = ZipState(count: count)
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard !isEnded, !state.isDone, state.slots.attach(index, subscription) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    var effects = RelayEffects()
    refill(&effects)
    lock.unlock()
    effects.perform()
  }

  /// Asks each upstream with nothing waiting for one more value. Lock held.
  @inlinable
  func refill(_ effects: inout RelayEffects) {
    let queues = state.queues
    state.slots.refillAll(unused: outlet.unusedDemand, into: &effects) {
      outlet.unusedDemand == .unlimited || queues[$0].isEmpty
    }
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Any) {
    lock.lock()
    var others: [any Subscription] = []
    if let tuple = state.received(value, from: index) {
      outlet.push(combine(tuple))
      if case .finish(let cancelling) = state.finishIfExhausted() {
        others = cancelling
        outlet.finish(.finished)
      }
    }
    var effects = RelayEffects()
    if !state.isDone { refill(&effects) }
    lock.unlock()
    for other in others { other.cancel() }
    effects.perform()
    drain()
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    switch state.completed(index, with: completion) {
    case .none:
      lock.unlock()
    case .finish(let others):
      outlet.finish(.finished)
      lock.unlock()
      for other in others { other.cancel() }
      drain()
    case .fail(let error, let others):
      outlet.finish(.failure(error))
      lock.unlock()
      for other in others { other.cancel() }
      drain()
    }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout RelayEffects) {
    if !state.isDone { refill(&effects) }
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    for upstream in state.end() { effects.cancel(upstream) }
  }
}
