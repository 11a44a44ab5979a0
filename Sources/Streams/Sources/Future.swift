/// A publisher that eventually produces one value, or fails, and replays that result to every
/// subscriber.
///
/// The closure runs once, when the future is created. Its promise may be fulfilled from any thread;
/// only the first fulfilment counts. Each subscriber receives the result when it has demand:
/// the value followed by `.finished`, or the failure.
///
/// ```swift
/// let answer = Future<Int, Never> { promise in
///   DispatchQueue.global().async { promise(.success(42)) }
/// }
/// ```
public final class Future<Output, Failure: Error>: Publisher, @unchecked Sendable {
  /// The callback that fulfils a future.
  public typealias Promise = @Sendable (Result<Output, Failure>) -> Void

  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: the subscriptions waiting for the result, the result once known. They
  // are `@exclusivity(unchecked)`: the lock already makes each access exclusive.
  @exclusivity(unchecked) @usableFromInline var waiting: [FutureConduit<Output, Failure>] = []
  @exclusivity(unchecked) @usableFromInline var result: Result<Output, Failure>?

  /// A future whose result `attemptToFulfill` provides through its promise.
  public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
    attemptToFulfill { [self] result in fulfill(result) }
  }

  private func fulfill(_ result: Result<Output, Failure>) {
    lock.lock()
    guard self.result == nil else {
      lock.unlock()
      return
    }
    self.result = result
    let waiting = self.waiting
    self.waiting = []
    lock.unlock()
    for conduit in waiting {
      conduit.resolve(result)
    }
  }

  @usableFromInline
  func detach(_ conduit: FutureConduit<Output, Failure>) {
    lock.lock()
    let index = waiting.firstIndex { $0 === conduit }
    let removed = index.map { waiting.remove(at: $0) }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = FutureSubscription(subscriber, future: self)
    lock.lock()
    let known = result
    if known == nil {
      waiting.append(conduit)
    }
    lock.unlock()
    subscriber.receive(subscription: conduit)
    if let known {
      conduit.accept(known)
    }
  }
}

/// A future's link to one subscriber, seen by the future without the subscriber's type.
///
/// The future resolves it through a handler that `FutureSubscription` creates in its `@inlinable`
/// initialiser, so that delivery is specialised for the subscriber in the module that subscribes
/// (see `HandlerSubscription`).
@usableFromInline
internal class FutureConduit<Output, Failure: Error>: HandlerSubscription {
  // Set in `init` and never changed; the subclass guards its own state.
  @usableFromInline let resolveHandler: (FutureConduit, Result<Output, Failure>) -> Void

  @inlinable
  init(
    resolve: @escaping (FutureConduit, Result<Output, Failure>) -> Void,
    request: @escaping (HandlerSubscription, Subscribers.Demand) -> Void,
    cancel: @escaping (HandlerSubscription) -> Void
  ) {
    resolveHandler = resolve
    super.init(request: request, cancel: cancel)
  }

  /// Hands the future's result to the subscription.
  @inlinable
  final func resolve(_ result: Result<Output, Failure>) {
    resolveHandler(self, result)
  }
}

/// Delivers the future's result once both the result and demand are there.
@usableFromInline
internal final class FutureSubscription<Downstream: Subscriber>: FutureConduit<
  Downstream.Input, Downstream.Failure
>
{
  @usableFromInline
  override var operatorName: String { "Future" }

  @usableFromInline let lock = StreamsLock()
  // Protected by `lock`: demand, subscriber (nil once done), future (nil once resolved), result.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive.
  @exclusivity(unchecked) @usableFromInline var hasDemand = false
  @exclusivity(unchecked) @usableFromInline var future:
    Future<Downstream.Input, Downstream.Failure>?
  @exclusivity(unchecked) @usableFromInline var downstream: Downstream?
  @exclusivity(unchecked) @usableFromInline var result:
    Result<Downstream.Input, Downstream.Failure>?

  @inlinable
  init(_ downstream: Downstream, future: Future<Downstream.Input, Downstream.Failure>) {
    self.downstream = downstream
    self.future = future
    super.init(
      resolve: { conduit, result in
        unsafeDowncast(conduit, to: FutureSubscription<Downstream>.self).accept(result)
      },
      request: { subscription, demand in
        unsafeDowncast(subscription, to: FutureSubscription<Downstream>.self).add(demand)
      },
      cancel: { subscription in
        unsafeDowncast(subscription, to: FutureSubscription<Downstream>.self).stop()
      })
  }

  /// Keeps the result and delivers it if there is demand (a failure needs none).
  @inlinable
  func accept(_ result: Result<Downstream.Input, Downstream.Failure>) {
    lock.lock()
    future = nil
    self.result = result
    deliverIfReadyAndUnlock()
  }

  @inlinable
  func add(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    lock.lock()
    hasDemand = true
    deliverIfReadyAndUnlock()
  }

  /// Called with the lock held; unlocks.
  @inlinable
  func deliverIfReadyAndUnlock() {
    guard let downstream, let result, hasDemand || isFailure(result) else {
      lock.unlock()
      return
    }
    self.downstream = nil
    lock.unlock()
    downstream.receive(result: result)
  }

  @inlinable
  func isFailure(_ result: Result<Downstream.Input, Downstream.Failure>) -> Bool {
    if case .failure = result { return true }
    return false
  }

  @inlinable
  func stop() {
    lock.lock()
    let downstream = self.downstream
    let future = self.future
    self.downstream = nil
    self.future = nil
    lock.unlock()
    future?.detach(self)
    withExtendedLifetime(downstream) {}
  }
}
