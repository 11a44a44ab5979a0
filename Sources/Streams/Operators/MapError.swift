extension Publisher {
  /// Converts a failure with `transform`; values pass through unchanged.
  ///
  /// Stateless and lock-free: demand and cancellation pass straight through to the upstream.
  ///
  /// ```swift
  /// let typed = request.mapError { NetworkError.transport($0) }
  /// ```
  @inlinable
  public func mapError<E: Error>(_ transform: @escaping (Failure) -> E)
    -> Publishers.MapError<
      Self, E
    >
  {
    Publishers.MapError(upstream: self, transform: transform)
  }
}

extension Publishers {
  /// A publisher that converts its upstream's failure into another error.
  public struct MapError<Upstream: Publisher, Failure: Error>: Publisher {
    public typealias Output = Upstream.Output

    /// The publisher whose failure is converted.
    public let upstream: Upstream
    /// The conversion of the upstream's error.
    public let transform: (Upstream.Failure) -> Failure

    /// Creates a `MapError` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Failure) -> Failure) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.forward(to: subscriber, through: MapErrorForwarding(transform: transform))
    }
  }
}

/// The logic of `mapError`: converts the failure.
@usableFromInline
internal struct MapErrorForwarding<Input, UpstreamFailure: Error, Failure: Error>:
  ForwardingLogic
{
  @usableFromInline typealias Output = Input
  @usableFromInline static var operatorName: String { "MapError" }

  @usableFromInline let transform: (UpstreamFailure) -> Failure

  @inlinable
  init(transform: @escaping (UpstreamFailure) -> Failure) {
    self.transform = transform
  }

  @inlinable
  func forward<Downstream: Subscriber>(
    completion: Subscribers.Completion<UpstreamFailure>, to downstream: Downstream
  ) where Downstream.Input == Output, Downstream.Failure == Failure {
    downstream.receive(completion: completion.mapFailure(transform))
  }
}
