/// The subscription of every zip (`Zip` to `Zip4`): the n-th values of the upstreams are paired
/// into the n-th output.
///
/// Demand is Combine's: each request of the downstream is passed on, as it is, to every upstream
/// (an upstream that subscribes later is asked for all the demand so far), and values ask for
/// nothing more; tuples beyond the downstream's demand wait for it.
///
/// Values are kept type-erased and combined into the output by `combine` (an internal cast, never
/// user code).
@usableFromInline
internal final class ZipSubscription<Downstream: Subscriber>:
  StatefulOperatorSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Zip" }

  // `combine` is immutable. Protected by the inherited `lock`: the upstreams still running, the
  // values of each upstream waiting for their partners, which upstreams finished, and the
  // demand the downstream requested so far.
  @usableFromInline
  let combine: ([Any]) -> Downstream.Input
  @usableFromInline
  @exclusivity(unchecked) var upstreams = UpstreamPool()
  @usableFromInline
  @exclusivity(unchecked) var queues: [[Any]]
  @usableFromInline
  @exclusivity(unchecked) var finished: [Bool]
  @usableFromInline
  @exclusivity(unchecked) var requested = Subscribers.Demand.none

  @inlinable
  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.combine = combine
    queues = Array(repeating: [], count: count)
    finished = Array(repeating: false, count: count)
    super.init(downstream: downstream)
    for id in 0..<count { upstreams.reserve(id) }
  }

  /// A zip of `upstreams` upstreams whose subscription `downstream` has received; the
  /// caller then attaches upstream `i` with ``attach(_:id:)`` and id `i`.
  @inlinable
  static func started(
    for downstream: Downstream, upstreams: Int, combine: @escaping ([Any]) -> Downstream.Input
  ) -> ZipSubscription {
    let zip = ZipSubscription(downstream: downstream, count: upstreams, combine: combine)
    zip.start()
    return zip
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard delivery.isOpen, upstreams.attach(id, subscription) else {
      lock.unlock()
      subscription.cancel()
      return
    }
    let demand = requested
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Any) {
    lock.lock()
    guard delivery.isOpen, upstreams.consume(id) else {
      lock.unlock()
      return
    }
    queues[id].append(value)
    if queues.allSatisfy({ !$0.isEmpty }) {
      delivery.push(combine(queues.indices.map { queues[$0].removeFirst() }))
      if let ending = finishIfExhausted() {
        finishAndUnlock(.finished, effects: ending)
        return
      }
    }
    lock.unlock()
    drain()
  }

  /// Once an upstream finished with none of its values left waiting no tuple can come: ends the
  /// zip, returning the upstreams to cancel. Lock held.
  @inlinable
  func finishIfExhausted() -> DeferredEffects? {
    guard queues.indices.contains(where: { finished[$0] && queues[$0].isEmpty }) else {
      return nil
    }
    var effects = DeferredEffects()
    end(&effects)
    return effects
  }

  /// Cancels the upstreams and releases the waiting values. Lock held.
  @inlinable
  func end(_ effects: inout DeferredEffects) {
    effects.cancel(upstreams.removeAll())
    effects.release(queues)
    queues = []
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard delivery.isOpen, upstreams.contains(id) else {
      lock.unlock()
      return
    }
    switch completion {
    case .finished:
      _ = upstreams.remove(id)
      finished[id] = true
      guard let effects = finishIfExhausted() else {
        lock.unlock()
        return
      }
      finishAndUnlock(.finished, effects: effects)
    case .failure:
      var effects = DeferredEffects()
      end(&effects)
      finishAndUnlock(completion, effects: effects)
    }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout DeferredEffects) {
    requested += added
    if delivery.isOpen { upstreams.requestAll(added, into: &effects) }
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    end(&effects)
  }
}
