/// The state of a merge: the upstreams still running and whether the merge ended.
@usableFromInline
internal struct MergeState {
  @usableFromInline
  var slots = InnerSlots()
  @usableFromInline
  var isDone = false

  @usableFromInline
  internal enum Completion<Failure: Error> {
    case none
    case finish
    case fail(Failure, cancelling: [any Subscription])
  }

  /// Upstream `id` completed; what the merge does.
  @inlinable
  mutating func completed<Failure>(
    _ id: Int, with completion: Subscribers.Completion<Failure>
  ) -> Completion<Failure> {
    guard !isDone, slots.contains(id) else { return .none }
    _ = slots.remove(id)
    switch completion {
    case .finished:
      guard slots.isEmpty else { return .none }
      isDone = true
      return .finish
    case .failure(let error):
      isDone = true
      return .fail(error, cancelling: slots.removeAll())
    }
  }

  @inlinable
  mutating func end() -> [any Subscription] {
    isDone = true
    return slots.removeAll()
  }
}

/// The subscription of `merge` and `MergeMany`: values from every upstream go to the outlet in
/// arrival order; finished when every upstream finished; the first failure cancels the others.
@usableFromInline
internal final class MergeSubscription<Downstream: Subscriber>: RelaySubscription<Downstream>,
  UpstreamOwner, @unchecked Sendable
{
  @usableFromInline
  override var operatorName: String { "Merge" }

  @usableFromInline
  typealias UpstreamOutput = Downstream.Input
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure

  // Protected by the inherited `lock`.
  @usableFromInline
  var state = MergeState()

  @inlinable
  init(downstream: Downstream, count: Int) {
    super.init(downstream: downstream)
    for id in 0..<count { state.slots.reserve(id) }
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
  func upstream(_ index: Int, didSend value: Downstream.Input) {
    lock.lock()
    let isLive = !state.isDone
    guard
      let effects = state.slots.received(index, unused: outlet.unusedDemand, isLive: isLive)
    else {
      lock.unlock()
      return
    }
    emitAndUnlock(value, effects: effects)
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
