extension Publisher {
  /// Transforms every value with an error-throwing `transform`.
  ///
  /// If `transform` throws, the upstream is cancelled and the publisher fails with the error;
  /// nothing is delivered after that.
  ///
  /// ```swift
  /// let parsed = strings.tryMap { try JSONDecoder().decode(Item.self, from: Data($0.utf8)) }
  /// ```
  @inlinable
  public consuming func tryMap<T>(_ transform: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Self, T>
  {
    Publishers.TryMap(upstream: self, transform: transform)
  }
}

extension Publishers.TryMap {
  /// Fuses an error-throwing map and the map after it into one `TryMap`.
  @inlinable
  public consuming func map<T>(_ next: @escaping (Output) -> T) -> Publishers.TryMap<Upstream, T> {
    let first = transform
    return Publishers.TryMap(upstream: upstream) { next(try first($0)) }
  }

  /// Fuses two consecutive error-throwing maps into one.
  @inlinable
  public consuming func tryMap<T>(_ next: @escaping (Output) throws -> T)
    -> Publishers.TryMap<Upstream, T>
  {
    let first = transform
    return Publishers.TryMap(upstream: upstream) { try next(try first($0)) }
  }
}

extension Publishers {
  /// A publisher that transforms every value of its upstream with an error-throwing closure.
  public struct TryMap<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher whose values are transformed.
    public let upstream: Upstream
    /// The transformation; throwing fails the publisher.
    public let transform: (Upstream.Output) throws -> Output

    /// Creates a `TryMap` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, transform: @escaping (Upstream.Output) throws -> Output) {
      self.upstream = upstream
      self.transform = transform
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = TryMapLogic<Upstream.Output, Output, Upstream.Failure>(transform: transform)
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "TryMap"))
    }
  }
}

@usableFromInline
internal struct TryMapLogic<Input, Output, UpstreamFailure: Error>: FilterLogic {
  @usableFromInline let transform: (Input) throws -> Output

  @inlinable
  init(transform: @escaping (Input) throws -> Output) {
    self.transform = transform
  }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Output, any Error> {
    do {
      return .emit(try transform(input))
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func failure(_ error: UpstreamFailure) -> any Error { error }
}
