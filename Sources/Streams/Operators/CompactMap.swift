extension Publisher {
  /// Delivers the non-nil results of `transform`.
  ///
  /// Stateless and lock-free: a value mapped to nil is replaced by a request for one more upstream
  /// value, so the downstream's demand is still served.
  ///
  /// ```swift
  /// let cancellable = ["1", "x", "3"].publisher.compactMap { Int($0) }.sink { print($0) }  // 1, 3
  /// ```
  @inlinable
  public consuming func compactMap<T>(_ transform: @escaping (Output) -> T?)
    -> Publishers.CompactMap<
      Self, T
    >
  {
    Publishers.CompactMap(upstream: self, transform: transform)
  }

  /// Delivers the non-nil results of an error-throwing `transform`.
  ///
  /// If `transform` throws, the upstream is cancelled and the publisher fails with the error.
  @inlinable
  public consuming func tryCompactMap<T>(
    _ transform: @escaping (Output) throws -> T?
  ) -> Publishers.TryCompactMap<Self, T> {
    Publishers.TryCompactMap(upstream: self, transform: transform)
  }
}

extension Publishers.CompactMap {
  /// Fuses two consecutive compact maps into one.
  @inlinable
  public consuming func compactMap<T>(
    _ next: @escaping (Output) -> T?
  ) -> Publishers.CompactMap<Upstream, T> {
    let first = transform
    return Publishers.CompactMap(upstream: upstream) { first($0).flatMap(next) }
  }

  /// Fuses a compact map and the map after it into one compact map.
  @inlinable
  public consuming func map<T>(_ next: @escaping (Output) -> T)
    -> Publishers.CompactMap<Upstream, T>
  {
    let first = transform
    return Publishers.CompactMap(upstream: upstream) { first($0).map(next) }
  }
}

extension Publishers.TryCompactMap {
  /// Fuses an error-throwing compact map and the compact map after it into one.
  @inlinable
  public consuming func compactMap<T>(
    _ next: @escaping (Output) throws -> T?
  ) -> Publishers.TryCompactMap<Upstream, T> {
    let first = transform
    return Publishers.TryCompactMap(upstream: upstream) { try first($0).flatMap(next) }
  }
}

extension Publishers {
  /// A publisher that delivers the non-nil results of a transformation of its upstream's values.
  public struct CompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are transformed.
    public let upstream: Upstream
    /// The transformation; nil drops the value.
    public let transform: (Upstream.Output) -> Output?

    /// Creates a `CompactMap` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.forward(to: subscriber, through: CompactMapForwarding(transform: transform))
    }
  }

  /// A publisher that delivers the non-nil results of an error-throwing transformation.
  public struct TryCompactMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher whose values are transformed.
    public let upstream: Upstream
    /// The transformation; nil drops the value, throwing fails the publisher.
    public let transform: (Upstream.Output) throws -> Output?

    /// Creates a `TryCompactMap` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output?) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = TryCompactMapLogic<Upstream.Output, Output, Upstream.Failure>(
        transform: transform)
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "TryCompactMap")
      )
    }
  }
}

@usableFromInline
internal struct TryCompactMapLogic<Input, Output, UpstreamFailure: Error>: FilterLogic {
  @usableFromInline let transform: (Input) throws -> Output?

  @inlinable
  init(transform: @escaping (Input) throws -> Output?) {
    self.transform = transform
  }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Output, any Error> {
    do {
      guard let output = try transform(input) else { return .drop }
      return .emit(output)
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func failure(_ error: UpstreamFailure) -> any Error { error }
}

/// The logic of `compactMap`: passes on the non-nil results of its transformation and asks the
/// upstream for one more in place of each nil.
@usableFromInline
internal struct CompactMapForwarding<Input, Output, Failure: Error>: ForwardingLogic {
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline static var operatorName: String { "CompactMap" }

  @usableFromInline let transform: (Input) -> Output?

  @inlinable
  init(transform: @escaping (Input) -> Output?) {
    self.transform = transform
  }

  @inlinable
  func forward<Downstream: Subscriber>(
    _ input: Input, to downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    guard let output = transform(input) else { return .max(1) }
    return downstream.receive(output)
  }
}
