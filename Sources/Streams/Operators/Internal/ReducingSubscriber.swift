/// What a reducing operator does after taking one upstream value into its result.
@usableFromInline
internal enum ReduceStep<Failure: Error> {
  /// Keep reducing.
  case proceed
  /// The result is known: cancel the upstream and deliver it.
  case finish
  /// Cancel the upstream and fail.
  case fail(Failure)
}

/// The per-subscription logic of an operator that reduces its upstream to at most one value.
///
/// Its methods are only called from the upstream's serialised calls, so it needs no lock.
@usableFromInline
internal protocol ReduceLogic {
  associatedtype Input
  associatedtype Output
  associatedtype UpstreamFailure: Error
  associatedtype Failure: Error

  /// Takes `input` into the result.
  mutating func receive(_ input: Input) -> ReduceStep<Failure>

  /// The value to deliver before `.finished`; nil to finish without a value.
  mutating func result() -> Output?

  /// The downstream failure for an upstream failure.
  func failure(_ error: UpstreamFailure) -> Failure
}

extension ReduceLogic where UpstreamFailure == Failure {
  @inlinable
  func failure(_ error: Failure) -> Failure { error }
}

/// The subscriber and subscription of the reducing operators (`reduce`, `collect()`, `count`,
/// `first`, `last`, `min`, `max`, `contains`, `allSatisfy`, ...).
///
/// It requests unlimited values from the upstream and delivers its single result, then
/// `.finished`, once the result is known and the downstream has asked for at least one value. An
/// upstream that ends without a result (`first`, `last`, `min`, `max` on an empty upstream) gives
/// `.finished` alone, also held until the downstream has asked, as Combine does. The result is
/// delivered by whichever thread completes that condition, exactly once.
@usableFromInline
internal final class ReducingSubscriber<Logic: ReduceLogic, Downstream: Subscriber>: Subscriber,
  Subscription, OperatorNamed
where Downstream.Input == Logic.Output, Downstream.Failure == Logic.Failure {
  @usableFromInline typealias Input = Logic.Input
  @usableFromInline typealias Failure = Logic.UpstreamFailure

  @usableFromInline
  enum Status {
    case awaitingSubscription
    case reducing(any Subscription)
    /// The result is known (nil: finish without a value); the downstream has not asked yet.
    case awaitingDemand(Logic.Output?)
    case delivering
    case terminated
  }

  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the status (with the upstream subscription or the pending result), the
  // downstream (released once terminated) and whether the downstream asked for a value.
  // `logic` is only touched by the upstream's serialised calls.
  @usableFromInline var status = Status.awaitingSubscription
  @usableFromInline var downstream: Downstream?
  @usableFromInline var hasDemand = false
  @usableFromInline var logic: Logic

  /// The operator this subscription serves, for ``OperatorNamed``.
  @usableFromInline let operatorName: String

  @inlinable
  init(logic: Logic, downstream: Downstream, name: String) {
    operatorName = name
    self.logic = logic
    self.downstream = downstream
  }

  @inlinable
  func receive(subscription: any Subscription) {
    lock.lock()
    guard case .awaitingSubscription = status, let downstream else {
      lock.unlock()
      subscription.cancel()
      return
    }
    status = .reducing(subscription)
    lock.unlock()
    downstream.receive(subscription: self)
    lock.lock()
    let isReducing = if case .reducing = status { true } else { false }
    lock.unlock()
    if isReducing {
      subscription.request(.unlimited)
    }
  }

  @inlinable
  func receive(_ input: Logic.Input) -> Subscribers.Demand {
    lock.lock()
    guard case .reducing = status else {
      lock.unlock()
      return .none
    }
    lock.unlock()
    switch logic.receive(input) {
    case .proceed:
      break
    case .finish:
      deliver(logic.result(), cancellingUpstream: true)
    case .fail(let error):
      fail(error, cancellingUpstream: true)
    }
    return .none
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Logic.UpstreamFailure>) {
    switch completion {
    case .finished:
      deliver(logic.result(), cancellingUpstream: false)
    case .failure(let error):
      fail(logic.failure(error), cancellingUpstream: false)
    }
  }

  @inlinable
  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    lock.lock()
    switch status {
    case .awaitingDemand(let result?):
      status = .delivering
      lock.unlock()
      finish(delivering: result)
    case .awaitingDemand(nil):
      status = .terminated
      let downstream = self.downstream
      self.downstream = nil
      lock.unlock()
      downstream?.receive(completion: .finished)
    case .awaitingSubscription, .reducing:
      hasDemand = true
      lock.unlock()
    case .delivering, .terminated:
      lock.unlock()
    }
  }

  @inlinable
  func cancel() {
    lock.lock()
    let upstream: (any Subscription)?
    switch status {
    case .reducing(let subscription): upstream = subscription
    case .awaitingDemand, .delivering: upstream = nil
    case .awaitingSubscription, .terminated:
      lock.unlock()
      return
    }
    let previous = status
    status = .terminated
    let downstream = self.downstream
    self.downstream = nil
    lock.unlock()
    upstream?.cancel()
    withExtendedLifetime((downstream, previous)) {}
  }

  /// Delivers the result (or, with none, the finish) now if the downstream asked for a value, or
  /// keeps it until it does.
  @inlinable
  func deliver(_ result: Logic.Output?, cancellingUpstream: Bool) {
    lock.lock()
    guard case .reducing(let upstream) = status, let downstream else {
      lock.unlock()
      return
    }
    if !hasDemand {
      status = .awaitingDemand(result)
      lock.unlock()
      if cancellingUpstream {
        upstream.cancel()
      }
      return
    }
    guard let result else {
      status = .terminated
      self.downstream = nil
      lock.unlock()
      if cancellingUpstream {
        upstream.cancel()
      }
      downstream.receive(completion: .finished)
      return
    }
    status = .delivering
    lock.unlock()
    if cancellingUpstream {
      upstream.cancel()
    }
    finish(delivering: result)
  }

  /// Delivers the result, then `.finished` unless the downstream cancelled while receiving it.
  @inlinable
  func finish(delivering result: Logic.Output) {
    lock.lock()
    let downstream = self.downstream
    lock.unlock()
    guard let downstream else { return }
    _ = downstream.receive(result)
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
  func fail(_ error: Logic.Failure, cancellingUpstream: Bool) {
    lock.lock()
    guard case .reducing(let upstream) = status, let downstream else {
      lock.unlock()
      return
    }
    status = .terminated
    self.downstream = nil
    lock.unlock()
    if cancellingUpstream {
      upstream.cancel()
    }
    downstream.receive(completion: .failure(error))
  }
}

/// A reduction described by closures over a state value: `step` folds a value into the state and
/// says whether the result is known, `result` reads the value to deliver from the final state.
@usableFromInline
internal struct FoldLogic<Input, State, Output, UpstreamFailure: Error, Failure: Error>:
  ReduceLogic
{
  @usableFromInline var state: State
  @usableFromInline let step: (inout State, Input) -> ReduceStep<Failure>
  @usableFromInline let extract: (State) -> Output?
  @usableFromInline let convert: (UpstreamFailure) -> Failure

  @inlinable
  init(
    state: State, step: @escaping (inout State, Input) -> ReduceStep<Failure>,
    result: @escaping (State) -> Output?, convert: @escaping (UpstreamFailure) -> Failure
  ) {
    self.state = state
    self.step = step
    extract = result
    self.convert = convert
  }

  @inlinable
  mutating func receive(_ input: Input) -> ReduceStep<Failure> {
    step(&state, input)
  }

  @inlinable
  mutating func result() -> Output? { extract(state) }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { convert(error) }
}

extension Publisher {
  /// Subscribes a ``ReducingSubscriber`` running a ``FoldLogic`` built from these closures.
  @inlinable
  internal func fold<State, Result, NewFailure: Error, Downstream: Subscriber>(
    into downstream: Downstream, named name: String, state: State,
    step: @escaping (inout State, Output) -> ReduceStep<NewFailure>,
    result: @escaping (State) -> Result?, convert: @escaping (Failure) -> NewFailure
  ) where Downstream.Input == Result, Downstream.Failure == NewFailure {
    let logic = FoldLogic<Output, State, Result, Failure, NewFailure>(
      state: state, step: step, result: result, convert: convert)
    subscribe(ReducingSubscriber(logic: logic, downstream: downstream, name: name))
  }
}

/// Runs a throwing step, turning a thrown error into `.fail`.
@inlinable
internal func catchingStep(_ body: () throws -> ReduceStep<any Error>) -> ReduceStep<any Error> {
  do {
    return try body()
  } catch {
    return .fail(error)
  }
}
