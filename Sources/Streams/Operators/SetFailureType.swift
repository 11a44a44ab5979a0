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
      upstream.forward(to: subscriber, through: SetFailureTypeForwarding())
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

/// The logic of `setFailureType(to:)`: passes everything on; its upstream cannot fail.
@usableFromInline
internal struct SetFailureTypeForwarding<Input, Failure: Error>: ForwardingLogic {
  @usableFromInline typealias Output = Input
  @usableFromInline typealias UpstreamFailure = Never
  @usableFromInline static var operatorName: String { "SetFailureType" }

  @inlinable
  init() {}

  @inlinable
  func forward<Downstream: Subscriber>(
    completion: Subscribers.Completion<Never>, to downstream: Downstream
  ) where Downstream.Input == Output, Downstream.Failure == Failure {
    downstream.receive(completion: .finished)
  }
}
