extension Publisher {
  /// Transforms every value with `transform`.
  ///
  /// Stateless and lock-free: demand and cancellation pass straight through to the upstream.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher.map { $0 * 10 }.sink { print($0) }   // 10, 20, 30
  /// ```
  @inlinable
  public consuming func map<T>(_ transform: @escaping (Output) -> T) -> Publishers.Map<Self, T> {
    Publishers.Map(upstream: self, transform: transform)
  }

  /// Replaces every nil value with `output`.
  ///
  /// ```swift
  /// let cancellable = [1, nil, 3].publisher.replaceNil(with: 0).sink { print($0) }  // 1, 0, 3
  /// ```
  @inlinable
  public consuming func replaceNil<T>(with output: T) -> Publishers.Map<Self, T>
  where Output == T? {
    Publishers.Map(upstream: self) { $0 ?? output }
  }
}

extension Publishers.Map {
  /// Fuses two consecutive maps into one.
  @inlinable
  public consuming func map<T>(_ next: @escaping (Output) -> T) -> Publishers.Map<Upstream, T> {
    let first = transform
    return Publishers.Map(upstream: upstream) { next(first($0)) }
  }

  /// Fuses a map and the error-throwing map after it into one `TryMap`.
  @inlinable
  public consuming func tryMap<T>(_ next: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Upstream, T>
  {
    let first = transform
    return Publishers.TryMap(upstream: upstream) { try next(first($0)) }
  }
}

extension Publishers {
  /// A publisher that transforms every value of its upstream.
  public struct Map<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are transformed.
    public let upstream: Upstream
    /// The transformation.
    public let transform: (Upstream.Output) -> Output

    /// Creates a `Map` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.forward(to: subscriber, through: MapForwarding(transform: transform))
    }
  }
}

/// The logic of `map`: transforms each value.
@usableFromInline
internal struct MapForwarding<Input, Output, Failure: Error>: ForwardingLogic {
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline static var operatorName: String { "Map" }

  @usableFromInline let transform: (Input) -> Output

  @inlinable
  init(transform: @escaping (Input) -> Output) {
    self.transform = transform
  }

  @inlinable
  func forward<Downstream: Subscriber>(
    _ input: Input, to downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    downstream.receive(transform(input))
  }
}
