extension Result {
  /// A publisher that delivers a result once: its value then `.finished`, or its failure.
  ///
  /// As with Combine, a success waits for the subscriber's first demand; a failure is delivered at
  /// once, without waiting for demand.
  ///
  /// ```swift
  /// let cancellable = Result<Int, MyError>.success(3).publisher
  ///   .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })  // 3, finished
  /// ```
  public struct Publisher: Streams.Publisher {
    public typealias Output = Success

    /// The result delivered to each subscriber.
    public let result: Result<Success, Failure>

    /// A publisher of `result`.
    @inlinable
    public init(_ result: Result<Success, Failure>) {
      self.result = result
    }

    /// A publisher of the value `output`.
    @inlinable
    public init(_ output: Success) {
      result = .success(output)
    }

    /// A publisher of the failure `failure`.
    @inlinable
    public init(_ failure: Failure) {
      result = .failure(failure)
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Success, S.Failure == Failure {
      switch result {
      case .success:
        subscriber.receive(
          subscription: SingleValueSubscription(subscriber, result: result, name: "Once"))
      case .failure(let error):
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .failure(error))
      }
    }
  }

  /// This result as a publisher that delivers it once.
  @inlinable
  public var publisher: Publisher {
    Publisher(self)
  }
}

extension Result.Publisher: Equatable where Success: Equatable, Failure: Equatable {}
extension Result.Publisher: Sendable where Success: Sendable, Failure: Sendable {}
