/// The subscription of every merge (`Merge` to `Merge8`, `MergeMany`): values from every upstream
/// go to the downstream in arrival order; finished when every upstream finished; the first
/// failure cancels the others.
@usableFromInline
internal final class MergeSubscription<Downstream: Subscriber>:
  MergingSubscription<Downstream>, UpstreamOwner
{
  @usableFromInline
  override var operatorName: String { "Merge" }

  /// A merge of `upstreams` upstreams whose subscription `downstream` has received; the caller
  /// then attaches upstream `i` through ``link(_:)`` with id `i`.
  @inlinable
  static func started(for downstream: Downstream, upstreams: Int) -> MergeSubscription {
    let merge = MergeSubscription(downstream: downstream, upstreams: upstreams)
    merge.start()
    return merge
  }

  @inlinable
  func upstream(_ id: Int, didSubscribe subscription: any Subscription) {
    merged(id, didSubscribe: subscription)
  }

  @inlinable
  func upstream(_ id: Int, didSend value: Downstream.Input) {
    merged(id, didSend: value)
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
    finishAndUnlock(ending.completion, effects: ending.effects)
  }
}
