import Synchronization

/// A publisher that emits one value, then finishes.
///
/// The value is delivered on the first request for demand; a cancel before that delivers nothing.
public struct Just<Output>: Publisher {
  public typealias Failure = Never

  /// The value to emit.
  public let output: Output

  /// A publisher of `output`.
  @inlinable
  public init(_ output: Output) {
    self.output = output
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(
      subscription: SingleValueSubscription(subscriber, result: .success(output), name: "Just"))
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// The subscription of `Just` and `Optional.Publisher`: delivers one result on the first demand.
///
/// Its methods are `@inlinable` and reached through handlers created in `init`, so that delivery
/// is specialised for the concrete subscriber in the module that subscribes (see
/// `HandlerSubscription`).
@usableFromInline
internal final class SingleValueSubscription<Downstream: Subscriber>: HandlerSubscription {
  /// Set by the first call that ends the subscription (a request with demand, or a cancel): that
  /// call alone then reads and clears `downstream` and `result`. An atomic rather than a lock,
  /// which saves allocating a lock for every subscription.
  @usableFromInline let isClaimed = Atomic<Bool>(false)
  // The subscriber and result until delivered or cancelled, touched after `init` only by the
  // call `isClaimed` admitted (and by `deinit`). They are `@exclusivity(unchecked)`: that
  // hand-over already makes each access exclusive.
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var result:
    Result<Downstream.Input, Downstream.Failure>?

  /// The publisher served: `"Just"`, `"Optional"` or `"Once"` (a `Result.Publisher`).
  @usableFromInline let publisherName: String

  @usableFromInline
  override var operatorName: String { publisherName }

  @inlinable
  init(
    _ downstream: Downstream, result: Result<Downstream.Input, Downstream.Failure>, name: String
  ) {
    publisherName = name
    self.downstream = downstream
    self.result = result
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: SingleValueSubscription<Downstream>.self).deliver(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: SingleValueSubscription<Downstream>.self).stop()
      })
  }

  @inlinable
  func deliver(_ demand: Subscribers.Demand) {
    guard demand > 0, !isClaimed.exchange(true, ordering: .acquiringAndReleasing),
      let downstream, let result
    else { return }
    self.downstream = nil
    self.result = nil
    downstream.receive(result: result)
  }

  @inlinable
  func stop() {
    guard !isClaimed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let downstream = self.downstream
    let result = self.result
    self.downstream = nil
    self.result = nil
    withExtendedLifetime((downstream, result)) {}
  }
}
