/// The state of a combineLatest: the latest value of each upstream and which have finished.
@usableFromInline
internal struct CombineLatestState {
  @usableFromInline
  var slots = InnerSlots()
  @usableFromInline
  var latest: [Any?]
  @usableFromInline
  var missing: Int
  @usableFromInline
  var running: Int
  @usableFromInline
  var isDone = false

  @inlinable
  init(count: Int) {
    latest = Array(repeating: nil, count: count)
    missing = count
    running = count
    for id in 0..<count { slots.reserve(id) }
  }

  /// Records `value` from upstream `id`; the latest values of all upstreams once each has one.
  @inlinable
  mutating func received(_ value: Any, from id: Int) -> [Any]? {
    guard !isDone, slots.consume(id) else { return nil }
    if latest[id] == nil { missing -= 1 }
    latest[id] = value
    return missing == 0 ? latest.map { $0! } : nil
  }

  @usableFromInline
  internal enum Ending<Failure: Error> {
    case none
    case finish
    case fail(Failure, cancelling: [any Subscription])
  }

  @inlinable
  mutating func completed<Failure>(
    _ id: Int, with completion: Subscribers.Completion<Failure>
  ) -> Ending<Failure> {
    guard !isDone, slots.contains(id) else { return .none }
    _ = slots.remove(id)
    switch completion {
    case .finished:
      running -= 1
      guard running == 0 else { return .none }
      isDone = true
      latest = []
      return .finish
    case .failure(let error):
      isDone = true
      latest = []
      return .fail(error, cancelling: slots.removeAll())
    }
  }

  @inlinable
  mutating func end() -> [any Subscription] {
    isDone = true
    latest = []
    return slots.removeAll()
  }
}

/// The subscription of every combineLatest: upstream values are kept type-erased and combined
/// into the output by `combine` (an internal cast, never user code).
@usableFromInline
internal final class CombineLatestSubscription<Downstream: Subscriber>:
  RelaySubscription<Downstream>, UpstreamOwner, @unchecked Sendable
{
  @usableFromInline
  override var operatorName: String { "CombineLatest" }

  @usableFromInline
  typealias UpstreamOutput = Any
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure

  // `combine` is immutable; `state` is protected by the inherited `lock`.
  @usableFromInline
  let combine: ([Any]) -> Downstream.Input
  @usableFromInline
  var state: CombineLatestState

  @inlinable
  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.combine = combine
    state = CombineLatestState(count: count)
    super.init(downstream: downstream)
    if count == 0 {
      state.isDone = true
      outlet.finish(.finished)
    }
  }

  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    let isLive = !isEnded && !state.isDone
    let effects = state.slots.subscribed(
      index, subscription, unused: outlet.unusedDemand, isLive: isLive)
    lock.unlock()
    effects.perform()
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Any) {
    lock.lock()
    var effects = RelayEffects()
    guard let values = state.received(value, from: index) else {
      state.slots.refill(index, unused: outlet.unusedDemand, into: &effects)
      lock.unlock()
      effects.perform()
      return
    }
    state.slots.refill(index, unused: outlet.unusedDemand - 1, into: &effects)
    emitAndUnlock(combine(values), effects: effects)
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    switch state.completed(index, with: completion) {
    case .none:
      lock.unlock()
    case .finish:
      outlet.finish(.finished)
      lock.unlock()
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
    state.slots.refillAll(unused: outlet.unusedDemand, into: &effects)
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    for upstream in state.end() { effects.cancel(upstream) }
  }
}
