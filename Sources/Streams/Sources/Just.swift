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
///
/// It is generic over the optionals it holds (`Downstream?` and the result's optional) rather than
/// over the subscriber: releasing the subscription runs code that is not specialised for it, which
/// destroys each stored property through its type's metadata. Stored as generic arguments, those
/// types come with the subscription's own metadata; stored as `Downstream?` and `Result<…>?`, their
/// metadata would be looked up at run time on every release.
@usableFromInline
internal final class SingleValueSubscription<
  HeldDownstream: OptionalSlot, HeldResult: OptionalSlot
>:
  HandlerSubscription
where
  HeldDownstream.Wrapped: Subscriber,
  HeldResult.Wrapped == Result<HeldDownstream.Wrapped.Input, HeldDownstream.Wrapped.Failure>
{
  @usableFromInline typealias Downstream = HeldDownstream.Wrapped

  /// Set by the first call that ends the subscription (a request with demand, or a cancel): that
  /// call alone then takes `downstream` and `result`. An atomic rather than a lock, which saves
  /// allocating a lock for every subscription.
  @usableFromInline let isClaimed = Atomic<Bool>(false)
  // The subscriber and result until delivered or cancelled, touched after `init` only by the
  // call `isClaimed` admitted (and by `deinit`). They are `@exclusivity(unchecked)`: that
  // hand-over already makes each access exclusive.
  @exclusivity(unchecked) @usableFromInline var downstream: HeldDownstream
  @exclusivity(unchecked) @usableFromInline var result: HeldResult

  /// The publisher served: `"Just"`, `"Optional"` or `"Once"` (a `Result.Publisher`).
  @usableFromInline let publisherName: String

  @usableFromInline
  override var operatorName: String { publisherName }

  @inlinable
  init<S: Subscriber>(
    _ downstream: S, result: Result<S.Input, S.Failure>, name: String
  ) where HeldDownstream == S?, HeldResult == Result<S.Input, S.Failure>? {
    publisherName = name
    self.downstream = downstream
    self.result = result
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: SingleValueSubscription.self).deliver(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: SingleValueSubscription.self).stop()
      })
  }

  @inlinable
  func deliver(_ demand: Subscribers.Demand) {
    guard demand > 0, !isClaimed.exchange(true, ordering: .acquiringAndReleasing),
      let downstream = downstream.take(), let result = result.take()
    else { return }
    downstream.receive(result: result)
  }

  @inlinable
  func stop() {
    guard !isClaimed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let downstream = self.downstream.take()
    let result = self.result.take()
    withExtendedLifetime((downstream, result)) {}
  }
}
