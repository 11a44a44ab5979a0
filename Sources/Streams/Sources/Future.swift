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

  private let lock = StreamsLock()
  // Protected by `lock`: the result once known, the subscriptions waiting for it.
  private var result: Result<Output, Failure>?
  private var waiting: [FutureConduit<Output, Failure>] = []

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

  fileprivate func detach(_ conduit: FutureConduit<Output, Failure>) {
    lock.lock()
    let index = waiting.firstIndex { $0 === conduit }
    let removed = index.map { waiting.remove(at: $0) }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }

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
      conduit.resolve(known)
    }
  }
}

/// A future's link to one subscriber, seen by the future without the subscriber's type.
private class FutureConduit<Output, Failure: Error>: @unchecked Sendable {
  func resolve(_ result: Result<Output, Failure>) {}
}

/// Delivers the future's result once both the result and demand are there.
private final class FutureSubscription<Downstream: Subscriber>: FutureConduit<
  Downstream.Input, Downstream.Failure
>, Subscription, @unchecked Sendable
{
  private let lock = StreamsLock()
  // Protected by `lock`: subscriber (nil once done), future (nil once resolved), result, demand.
  private var downstream: Downstream?
  private var future: Future<Downstream.Input, Downstream.Failure>?
  private var result: Result<Downstream.Input, Downstream.Failure>?
  private var hasDemand = false

  init(_ downstream: Downstream, future: Future<Downstream.Input, Downstream.Failure>) {
    self.downstream = downstream
    self.future = future
  }

  override func resolve(_ result: Result<Downstream.Input, Downstream.Failure>) {
    lock.lock()
    future = nil
    self.result = result
    deliverIfReady()
  }

  func request(_ demand: Subscribers.Demand) {
    guard demand > 0 else { return }
    lock.lock()
    hasDemand = true
    deliverIfReady()
  }

  /// Called with the lock held; unlocks.
  private func deliverIfReady() {
    guard let downstream, let result, hasDemand || isFailure(result) else {
      lock.unlock()
      return
    }
    self.downstream = nil
    lock.unlock()
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }

  private func isFailure(_ result: Result<Downstream.Input, Downstream.Failure>) -> Bool {
    if case .failure = result { return true }
    return false
  }

  func cancel() {
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
