/// The subscriber and subscription of `replaceEmpty(with:)` and `replaceError(with:)`: values pass
/// through, and a completion may be replaced by a value followed by `.finished`.
///
/// It counts the downstream's outstanding demand so that the replacement value is delivered only
/// when demanded: if the downstream has none when the upstream completes, the replacement waits
/// for the next request. The lock guards state only and is released before calling out.
@usableFromInline
internal final class ReplacingSubscriber<UpstreamFailure: Error, Downstream: Subscriber>:
  Subscriber, Subscription, OperatorNamed
{
  @usableFromInline typealias Input = Downstream.Input
  @usableFromInline typealias Failure = UpstreamFailure

  @usableFromInline
  enum Status {
    case awaitingSubscription
    case subscribed(any Subscription)
    case awaitingDemand
    case delivering
    case terminated
  }

  @usableFromInline let lock = StreamsLock()
  @usableFromInline let replacement: Downstream.Input
  @usableFromInline let replacesEmpty: Bool
  @usableFromInline let convert: (UpstreamFailure) -> Downstream.Failure?
  // Protected by `lock`: the status, the downstream (released once terminated), the outstanding
  // downstream demand and whether a value went through.
  @usableFromInline var status = Status.awaitingSubscription
  @usableFromInline var downstream: Downstream?
  @usableFromInline var demand = Subscribers.Demand.none
  @usableFromInline var hasDelivered = false

  /// - Parameters:
  ///   - replacesEmpty: whether a `.finished` without any value is replaced.
  ///   - convert: the downstream failure for an upstream one; nil replaces the failure.
  @usableFromInline
  var operatorName: String { replacesEmpty ? "ReplaceEmpty" : "ReplaceError" }

  @inlinable
  init(
    downstream: Downstream, replacement: Downstream.Input, replacesEmpty: Bool,
    convert: @escaping (UpstreamFailure) -> Downstream.Failure?
  ) {
    self.downstream = downstream
    self.replacement = replacement
    self.replacesEmpty = replacesEmpty
    self.convert = convert
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = status, let downstream else {
      lock.unlock()
      subscription.cancel()
      return
    }
    status = .subscribed(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Downstream.Input) -> Subscribers.Demand {
    lock.lock()
    guard case .subscribed = status, let downstream else {
      lock.unlock()
      return .none
    }
    demand -= 1
    hasDelivered = true
    lock.unlock()
    let more = downstream.receive(input)
    if more > 0 {
      lock.lock()
      demand += more
      lock.unlock()
    }
    return more
  }

  @inlinable
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    lock.lock()
    guard case .subscribed(let upstream) = status, let downstream else {
      lock.unlock()
      return
    }
    defer { withExtendedLifetime(upstream) {} }
    let replaced: Subscribers.Completion<Downstream.Failure>?
    switch completion {
    case .finished:
      replaced = replacesEmpty && !hasDelivered ? nil : .finished
    case .failure(let error):
      replaced = convert(error).map { .failure($0) }
    }
    if replaced == nil && demand == .none {
      status = .awaitingDemand
      lock.unlock()
      return
    }
    guard let replaced else {
      status = .delivering
      lock.unlock()
      deliverReplacement(to: downstream)
      return
    }
    status = .terminated
    self.downstream = nil
    lock.unlock()
    downstream.receive(completion: replaced)
  }

  /// Delivers the replacement, then `.finished` unless the downstream cancelled while receiving it.
  @inlinable
  func deliverReplacement(to downstream: Downstream) {
    _ = downstream.receive(replacement)
    lock.lock()
    guard case .delivering = status else {
      lock.unlock()
      return
    }
    status = .terminated
    self.downstream = nil
    lock.unlock()
    downstream.receive(completion: .finished)
  }

  @inlinable
  func request(_ more: Subscribers.Demand) {
    guard more > 0 else { return }
    lock.lock()
    switch status {
    case .subscribed(let upstream):
      demand += more
      lock.unlock()
      upstream.request(more)
    case .awaitingDemand:
      status = .delivering
      let downstream = self.downstream
      lock.unlock()
      if let downstream {
        deliverReplacement(to: downstream)
      }
    case .awaitingSubscription, .delivering, .terminated:
      lock.unlock()
    }
  }

  @inlinable
  func cancel() {
    lock.lock()
    let upstream: (any Subscription)?
    switch status {
    case .subscribed(let subscription): upstream = subscription
    case .awaitingDemand, .delivering: upstream = nil
    case .awaitingSubscription, .terminated:
      lock.unlock()
      return
    }
    status = .terminated
    let downstream = self.downstream
    self.downstream = nil
    lock.unlock()
    upstream?.cancel()
    withExtendedLifetime(downstream) {}
  }
}
