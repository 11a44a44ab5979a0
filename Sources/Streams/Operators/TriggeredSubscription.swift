/// How an operator driven by a second publisher reacts to it.
@usableFromInline
internal enum TriggerKind {
  /// `prefix(untilOutputFrom:)`: the other's first value finishes the stream.
  case prefixUntil
  /// `drop(untilOutputFrom:)`: values pass once the other has published.
  case dropUntil
  /// `withLatestFrom`: each value is combined with the other's latest value.
  case withLatest
}

/// The state of an operator driven by a second publisher.
@usableFromInline
internal struct TriggeredState<Other> {
  @usableFromInline
  let kind: TriggerKind
  @usableFromInline
  var upstream: (any Subscription)?
  @usableFromInline
  var other: (any Subscription)?
  @usableFromInline
  var pendingDemand = Subscribers.Demand.none
  @usableFromInline
  var latest: Other?
  @usableFromInline
  var isDone = false

  @inlinable
  init(kind: TriggerKind) {
    self.kind = kind
  }

  @usableFromInline
  internal enum OtherAction {
    case none
    case finish(cancelling: [any Subscription])
  }

  /// The other publisher sent `value`.
  @inlinable
  mutating func otherSent(_ value: Other) -> OtherAction {
    guard !isDone else { return .none }
    switch kind {
    case .prefixUntil:
      return .finish(cancelling: end())
    case .dropUntil:
      guard latest == nil else { return .none }
      latest = value
      defer { other = nil }
      return .finish(cancelling: other.map { [$0] } ?? [])
    case .withLatest:
      latest = value
      return .none
    }
  }

  @inlinable
  mutating func end() -> [any Subscription] {
    isDone = true
    latest = nil
    defer {
      upstream = nil
      other = nil
    }
    return [upstream, other].compactMap { $0 }
  }
}

/// The subscription of `prefix(untilOutputFrom:)`, `drop(untilOutputFrom:)` and `withLatestFrom`.
///
/// Demand passes through to the upstream; a value the operator swallows (before the trigger, or
/// without a latest value) is replaced by a request for one more. `select` turns an upstream
/// value and the other's latest value into the output, or nil to swallow it; it may be user code
/// and is called without the lock.
@usableFromInline
internal final class TriggeredSubscription<Value, Other: Publisher, Downstream: Subscriber>:
  RelaySubscription<Downstream>, UpstreamOwner, SecondaryOwner, @unchecked Sendable
{
  @usableFromInline
  override var operatorName: String {
    switch lock.withLock({ state.kind }) {
    case .prefixUntil: "PrefixUntilOutput"
    case .dropUntil: "DropUntilOutput"
    case .withLatest: "WithLatestFrom"
    }
  }

  @usableFromInline
  typealias UpstreamOutput = Value
  @usableFromInline
  typealias UpstreamFailure = Downstream.Failure
  @usableFromInline
  typealias SecondaryOutput = Other.Output
  @usableFromInline
  typealias SecondaryFailure = Other.Failure

  // Immutable configuration; `state` is protected by the inherited `lock`.
  @usableFromInline
  let select: (Value, Other.Output?) -> Downstream.Input?
  @usableFromInline
  let failure: ((Other.Failure) -> Downstream.Failure)?
  @usableFromInline
  var state: TriggeredState<Other.Output>

  @inlinable
  init(
    downstream: Downstream, kind: TriggerKind,
    select: @escaping (Value, Other.Output?) -> Downstream.Input?,
    failure: ((Other.Failure) -> Downstream.Failure)?
  ) {
    self.select = select
    self.failure = failure
    state = TriggeredState(kind: kind)
    super.init(downstream: downstream)
  }

  @inlinable
  func upstream(_ index: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard !isEnded, !state.isDone, state.upstream == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    state.upstream = subscription
    let demand = state.pendingDemand
    state.pendingDemand = .none
    lock.unlock()
    if demand > 0 { subscription.request(demand) }
  }

  @inlinable
  override func demandDidGrow(by added: Subscribers.Demand, _ effects: inout RelayEffects) {
    if let upstream = state.upstream {
      effects.request(added, from: upstream)
    } else {
      state.pendingDemand += added
    }
  }

  @inlinable
  func upstream(_ index: Int, didSend value: Value) {
    lock.lock()
    guard !state.isDone else {
      lock.unlock()
      return
    }
    let latest = state.latest
    lock.unlock()
    let output = select(value, latest)
    lock.lock()
    guard !state.isDone else {
      lock.unlock()
      return
    }
    if let output {
      emitAndUnlock(output)
    } else {
      let upstream = state.upstream
      lock.unlock()
      upstream?.request(.max(1))
    }
  }

  @inlinable
  func upstream(_ index: Int, didComplete completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    guard !state.isDone else {
      lock.unlock()
      return
    }
    state.upstream = nil
    let others = state.end()
    outlet.finish(completion)
    lock.unlock()
    for other in others { other.cancel() }
    drain()
  }

  @inlinable
  func secondary(_ id: Int, didSubscribe subscription: any Subscription) {
    lock.lock()
    guard !isEnded, !state.isDone, state.other == nil else {
      lock.unlock()
      subscription.cancel()
      return
    }
    state.other = subscription
    let kind = state.kind
    lock.unlock()
    subscription.request(kind == .withLatest ? .unlimited : .max(1))
  }

  @inlinable
  func secondary(_ id: Int, didSend value: Other.Output) {
    lock.lock()
    let action = state.otherSent(value)
    guard case .finish(let cancelling) = action else {
      lock.unlock()
      return
    }
    if state.kind == .prefixUntil { outlet.finish(.finished) }
    lock.unlock()
    for subscription in cancelling { subscription.cancel() }
    drain()
  }

  @inlinable
  func secondary(_ id: Int, didComplete completion: Subscribers.Completion<Other.Failure>) {
    lock.lock()
    guard !state.isDone else {
      lock.unlock()
      return
    }
    state.other = nil
    let ending: Subscribers.Completion<Downstream.Failure>?
    switch completion {
    case .failure(let error):
      ending = failure.map { .failure($0(error)) }
    case .finished:
      ending = state.kind == .dropUntil && state.latest == nil ? .finished : nil
    }
    guard let ending else {
      lock.unlock()
      return
    }
    let others = state.end()
    outlet.finish(ending)
    lock.unlock()
    for other in others { other.cancel() }
    drain()
  }

  @inlinable
  override func didCancel(_ effects: inout RelayEffects) {
    for subscription in state.end() { effects.cancel(subscription) }
  }
}
