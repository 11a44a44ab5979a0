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
      upstream.receive(subscriber: MapErrorSubscriber(downstream: subscriber, transform: transform))
    }
  }
}

/// The subscriber of `mapError`: passes values on and converts the failure.
///
/// Generic over its upstream failure rather than nested in `Publishers.MapError`, so that a chain
/// of operators specialises (see `MapSubscriber`).
@usableFromInline
internal struct MapErrorSubscriber<UpstreamFailure: Error, Downstream: Subscriber>: Subscriber,
  OperatorNamed
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = UpstreamFailure

  @usableFromInline
  var operatorName: String { "MapError" }

  @usableFromInline let downstream: Downstream
  @usableFromInline let transform: (UpstreamFailure) -> Downstream.Failure
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @inlinable
  init(downstream: Downstream, transform: @escaping (UpstreamFailure) -> Downstream.Failure) {
    self.downstream = downstream
    self.transform = transform
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
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    downstream.receive(completion: completion.mapFailure(transform))
  }
}
