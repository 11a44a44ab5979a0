/// A publisher that emits no value and, optionally, finishes at once.
public struct Empty<Output, Failure: Error>: Publisher, Equatable {
  /// Whether subscribers receive `.finished` right after subscribing; `false` never completes.
  public let completeImmediately: Bool

  /// An empty publisher.
  @inlinable
  public init(completeImmediately: Bool = true) {
    self.completeImmediately = completeImmediately
  }

  /// An empty publisher whose types are given explicitly.
  @inlinable
  public init(
    completeImmediately: Bool = true, outputType: Output.Type, failureType: Failure.Type
  ) {
    self.completeImmediately = completeImmediately
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    subscriber.receive(subscription: Subscriptions.empty)
    if completeImmediately {
      subscriber.receive(completion: .finished)
    }
  }
}

extension Empty: Sendable {}
