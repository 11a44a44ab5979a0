/// The subscription of every combineLatest (`CombineLatest` to `CombineLatest4`): once each
/// upstream has published, every new value publishes the latest value of each.
///
/// Upstream values are kept type-erased and combined into the output by `combine` (an internal
/// cast, never user code).
@usableFromInline
internal final class CombineLatestSubscription<Downstream: Subscriber>:
  MergingSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "CombineLatest" }

  // `combine` is immutable. Protected by the inherited `lock`: the latest value of each upstream,
  // and how many have not published yet.
  @usableFromInline
  let combine: ([Any]) -> Downstream.Input
  @usableFromInline
  @exclusivity(unchecked) var latest: [Any?]
  @usableFromInline
  @exclusivity(unchecked) var missing: Int

  @inlinable
  init(downstream: Downstream, count: Int, combine: @escaping ([Any]) -> Downstream.Input) {
    self.combine = combine
    latest = Array(repeating: nil, count: count)
    missing = count
    super.init(downstream: downstream, upstreams: count)
  }

  /// A combineLatest of `upstreams` upstreams whose subscription `downstream` has received; the
  /// caller then attaches upstream `i` with ``attach(_:id:)`` and id `i`.
  @inlinable
  static func started(
    for downstream: Downstream, upstreams: Int, combine: @escaping ([Any]) -> Downstream.Input
  ) -> CombineLatestSubscription {
    let combination = CombineLatestSubscription(
      downstream: downstream, count: upstreams, combine: combine)
    combination.start()
    return combination
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    merged(id, didSubscribe: subscription)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Any) {
    lock.lock()
    var effects = DeferredEffects()
    guard delivery.isOpen, merged.consume(id) else {
      lock.unlock()
      return
    }
    if latest[id] == nil { missing -= 1 }
    latest[id] = value
    guard missing == 0 else {
      merged.refill(id, unused: delivery.unusedDemand, into: &effects)
      lock.unlock()
      effects.perform()
      return
    }
    merged.refill(id, unused: delivery.unusedDemand - 1, into: &effects)
    sendAndUnlock(combine(latest.map { $0! }), effects: effects)
  }

  @inlinable
  func upstream(_ id: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard delivery.isOpen,
      let ending = merged.completed(id, with: completion, finishesWhenEmpty: true)
    else {
      lock.unlock()
      return
    }
    var effects = ending.effects
    effects.release(latest)
    latest = []
    finishAndUnlock(ending.completion, effects: effects)
  }

  @inlinable
  override func didCancel(_ effects: inout DeferredEffects) {
    super.didCancel(&effects)
    effects.release(latest)
    latest = []
  }
}
