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

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
    subscriber.receive(subscription: SingleValueSubscription(subscriber, result: .success(output)))
  }
}

extension Just: Equatable where Output: Equatable {}
extension Just: Sendable where Output: Sendable {}

/// Delivers a result once there is demand: a value followed by `.finished`, or a failure.
internal final class SingleValueSubscription<Downstream: Subscriber>: Subscription,
  @unchecked Sendable
{
  private let lock = StreamsLock()
  // Protected by `lock`: the subscriber and result until delivered or cancelled.
  private var downstream: Downstream?
  private var result: Result<Downstream.Input, Downstream.Failure>?

  init(_ downstream: Downstream, result: Result<Downstream.Input, Downstream.Failure>) {
    self.downstream = downstream
    self.result = result
  }

  func request(_ demand: Subscribers.Demand) {
    lock.lock()
    guard demand > 0, let downstream, let result else {
      lock.unlock()
      return
    }
    self.downstream = nil
    self.result = nil
    lock.unlock()
    switch result {
    case .success(let value):
      _ = downstream.receive(value)
      downstream.receive(completion: .finished)
    case .failure(let error):
      downstream.receive(completion: .failure(error))
    }
  }

  func cancel() {
    lock.lock()
    let downstream = self.downstream
    let result = self.result
    self.downstream = nil
    self.result = nil
    lock.unlock()
    withExtendedLifetime((downstream, result)) {}
  }
}
