/// What a filtering operator does with one upstream value.
@usableFromInline
internal enum FilterStep<Output, Failure: Error> {
  /// Deliver the value downstream.
  case emit(Output)
  /// Drop the value and ask the upstream for one more in its place.
  case drop
  /// Keep the value without asking for another (the operator buffers it, or its place was
  /// requested in advance).
  case absorb
  /// Deliver the value, then cancel the upstream and finish; the demand the downstream returned
  /// for it still goes back to the upstream, as Combine's `output(in:)` returns it.
  case emitAndFinish(Output)
  /// Cancel the upstream and finish.
  case finish
  /// Cancel the upstream and fail.
  case fail(Failure)
}

/// The per-subscription logic of an operator that maps one upstream value to at most one value.
///
/// Its methods are only called from the upstream's serialised calls, so it needs no lock.
@usableFromInline
internal protocol FilterLogic {
  associatedtype Input
  associatedtype Output
  associatedtype UpstreamFailure: Error
  associatedtype Failure: Error

  /// Whether the operator finishes before any value arrives (`prefix(0)`).
  var isExhausted: Bool { get }

  /// Decides what to do with `input`.
  mutating func receive(_ input: Input) -> FilterStep<Output, Failure>

  /// A value to deliver when the upstream finishes (a partial `collect(_:)` buffer).
  mutating func flush() -> Output?

  /// How many upstream values one downstream value takes (`collect(_:)`); 1 otherwise.
  var demandMultiplier: Int { get }

  /// Upstream values asked for in advance with the first request (`dropFirst(_:)`); 0 otherwise.
  var demandAheadOfFirstRequest: Int { get }

  /// The downstream failure for an upstream failure.
  func failure(_ error: UpstreamFailure) -> Failure
}

extension FilterLogic {
  @inlinable
  var isExhausted: Bool { false }

  @inlinable
  mutating func flush() -> Output? { nil }

  @inlinable
  var demandMultiplier: Int { 1 }

  @inlinable
  var demandAheadOfFirstRequest: Int { 0 }
}

extension FilterLogic where UpstreamFailure == Failure {
  @inlinable
  func failure(_ error: Failure) -> Failure { error }
}

/// Where a ``FilteringSubscriber`` stands with its upstream. A type of its own rather than one
/// nested in the generic class, so that releasing a subscriber (in code not specialised for it)
/// needs no run-time metadata for it.
///
/// A trivial enum, with the subscription kept beside it, rather than an enum carrying the
/// subscription: testing the case of an enum whose payload is an existential copies and destroys
/// the payload (through its witnesses), which every value and every cancel paid.
@usableFromInline
internal enum FilteringPhase {
  case awaitingSubscription
  case subscribed
  case terminated
}

/// The subscriber and subscription of the stateful filtering operators (`tryMap`, `scan`,
/// `prefix`, `removeDuplicates`, ...).
///
/// Demand passes through to the upstream (scaled by the logic). A lock guards the lifecycle so
/// that nothing is delivered after a cancel, a completion or a failure the operator raised itself;
/// the logic and the downstream are called with the lock released. Its downstream reaches
/// `request` and `cancel` through the handlers of ``HandlerSubscription``, specialised where the
/// chain is built.
///
/// It holds its downstream as `HeldDownstream`, a `Downstream?` passed as a generic argument, so
/// that releasing it (in code not specialised for it) finds that optional's metadata in its own
/// rather than looking it up at run time (see `OptionalSlot`).
@usableFromInline
internal final class FilteringSubscriber<Logic: FilterLogic, HeldDownstream: OptionalSlot>:
  LockingHandlerSubscription, Subscriber
where
  HeldDownstream.Wrapped: Subscriber, HeldDownstream.Wrapped.Input == Logic.Output,
  HeldDownstream.Wrapped.Failure == Logic.Failure
{
  @usableFromInline typealias Downstream = HeldDownstream.Wrapped
  @usableFromInline typealias Input = Logic.Input
  @usableFromInline typealias Failure = Logic.UpstreamFailure

  // Protected by `lock`: the lifecycle phase, the upstream subscription (held while subscribed),
  // the downstream, released once terminated, and the demand still to add to the first request.
  // `logic` is only touched by the upstream's serialised calls.
  // They are `@exclusivity(unchecked)`: the lock (or the upstream's serialisation, for `logic`)
  // already makes each access exclusive, and the runtime check costs two calls per access in the
  // unspecialised code that runs when upstreams call through `any Subscription`.
  @exclusivity(unchecked) @usableFromInline var phase = FilteringPhase.awaitingSubscription
  @exclusivity(unchecked) @usableFromInline var upstream = HeldSubscription()
  @exclusivity(unchecked) @usableFromInline var downstream: HeldDownstream
  @exclusivity(unchecked) @usableFromInline var demandAhead: Int
  @exclusivity(unchecked) @usableFromInline var logic: Logic
  @usableFromInline let demandMultiplier: Int

  /// The operator this subscription serves.
  @usableFromInline let name: StaticString

  @usableFromInline
  override var operatorName: String { name.description }

  @inlinable
  init<S: Subscriber>(logic: Logic, downstream: S, name: StaticString) where HeldDownstream == S? {
    self.name = name
    self.logic = logic
    self.downstream = downstream
    demandMultiplier = logic.demandMultiplier
    demandAhead = logic.demandAheadOfFirstRequest
    super.init(
      request: { subscription, demand in
        unsafeDowncast(subscription, to: FilteringSubscriber.self).forward(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: FilteringSubscriber.self).stop()
      })
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock()
    guard phase == .awaitingSubscription, let downstream = downstream.wrapped else {
      unlock()
      subscription.cancel()
      return
    }
    if logic.isExhausted {
      phase = .terminated
      _ = self.downstream.take()
      unlock()
      subscription.cancel()
      downstream.receive(subscription: Subscriptions.empty)
      downstream.receive(completion: .finished)
      return
    }
    phase = .subscribed
    upstream.hold(subscription)
    unlock()
    downstream.receive(subscription: self)
  }

  @inlinable
  func receive(_ input: Logic.Input) -> Subscribers.Demand {
    lock()
    guard phase == .subscribed, let downstream = downstream.wrapped else {
      unlock()
      return .none
    }
    unlock()
    switch logic.receive(input) {
    case .emit(let output):
      return downstream.receive(output) * demandMultiplier
    case .drop:
      return .max(1)
    case .absorb:
      return .none
    case .emitAndFinish(let output):
      let more = downstream.receive(output) * demandMultiplier
      terminate(with: .finished, cancellingUpstream: true)
      return more
    case .finish:
      terminate(with: .finished, cancellingUpstream: true)
    case .fail(let error):
      terminate(with: .failure(error), cancellingUpstream: true)
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
    switch completion {
    case .finished:
      if let last = logic.flush() {
        lock()
        let downstream = self.downstream.wrapped
        unlock()
        _ = downstream?.receive(last)
      }
      terminate(with: .finished, cancellingUpstream: false)
    case .failure(let error):
      terminate(with: .failure(logic.failure(error)), cancellingUpstream: false)
    }
  }

  /// Passes the downstream's demand to the upstream (scaled by the logic).
  @inlinable
  func forward(_ demand: Subscribers.Demand) {
    lock()
    guard phase == .subscribed, demand > 0 else {
      unlock()
      return
    }
    let upstream = self.upstream.subscription
    let ahead = demandAhead
    demandAhead = 0
    unlock()
    upstream.request(demand * demandMultiplier + ahead)
  }

  /// The downstream cancelled: cancels the upstream and releases the downstream.
  @inlinable
  func stop() {
    lock()
    guard phase == .subscribed else {
      unlock()
      return
    }
    phase = .terminated
    let upstream = self.upstream.take()
    let downstream = self.downstream.take()
    unlock()
    upstream.cancel()
    withExtendedLifetime(downstream) {}
  }

  /// Ends the stream once: releases the upstream (cancelling it when asked) and completes.
  @inlinable
  func terminate(
    with completion: Subscribers.Completion<Logic.Failure>, cancellingUpstream: Bool
  ) {
    lock()
    guard phase == .subscribed, let downstream = self.downstream.take() else {
      unlock()
      return
    }
    phase = .terminated
    let upstream = self.upstream.take()
    unlock()
    if cancellingUpstream {
      upstream.cancel()
    }
    downstream.receive(completion: completion)
  }
}
