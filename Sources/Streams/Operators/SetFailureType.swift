extension Publisher where Failure == Never {
  /// Gives a publisher that cannot fail the failure type `E`, so it can be combined with
  /// publishers that can.
  ///
  /// Stateless and lock-free: everything passes straight through.
  ///
  /// ```swift
  /// let typed: AnyPublisher<Int, URLError> = Just(1).setFailureType(to: URLError.self)
  ///   .eraseToAnyPublisher()
  /// ```
  @inlinable
  public func setFailureType<E: Error>(to failureType: E.Type)
    -> Publishers.SetFailureType<
      Self, E
    >
  {
    Publishers.SetFailureType(upstream: self)
  }
}

extension Publishers {
  /// A publisher that cannot fail, presented with another failure type.
  public struct SetFailureType<Upstream: Publisher, Failure: Error>: Publisher
  where Upstream.Failure == Never {
    public typealias Output = Upstream.Output

    /// The publisher that cannot fail.
    public let upstream: Upstream

    /// Creates a `SetFailureType` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(subscriber: SetFailureTypeSubscriber(downstream: subscriber))
    }

    /// The same publisher with a different failure type.
    @inlinable
    public func setFailureType<E: Error>(to failure: E.Type)
      -> Publishers.SetFailureType<
        Upstream, E
      >
    {
      Publishers.SetFailureType(upstream: upstream)
    }
  }
}

/// The subscriber of `setFailureType(to:)`: passes everything on; its upstream cannot fail.
///
/// Not nested in `Publishers.SetFailureType`, so that a chain of operators specialises (see
/// `MapSubscriber`).
@usableFromInline
internal struct SetFailureTypeSubscriber<Downstream: Subscriber>: Subscriber, OperatorNamed {
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = Never

  @usableFromInline
  var operatorName: String { "SetFailureType" }

  @usableFromInline let downstream: Downstream
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @inlinable
  init(downstream: Downstream) {
    self.downstream = downstream
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<Never>) {
    downstream.receive(completion: .finished)
  }
}
