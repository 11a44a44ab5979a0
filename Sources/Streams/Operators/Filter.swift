extension Publisher {
  /// Delivers only the values that satisfy `isIncluded`.
  ///
  /// Stateless and lock-free: a dropped value is replaced by a request for one more upstream
  /// value, so the downstream's demand is still served.
  ///
  /// ```swift
  /// let cancellable = (1...6).publisher.filter { $0.isMultiple(of: 2) }.sink { print($0) }  // 2, 4, 6
  /// ```
  @inlinable
  public consuming func filter(_ isIncluded: @escaping (Output) -> Bool) -> Publishers.Filter<Self>
  {
    Publishers.Filter(upstream: self, isIncluded: isIncluded)
  }

  /// Delivers only the values that satisfy an error-throwing `isIncluded`.
  ///
  /// If `isIncluded` throws, the upstream is cancelled and the publisher fails with the error.
  @inlinable
  public consuming func tryFilter(_ isIncluded: @escaping (Output) throws -> Bool)
    -> Publishers.TryFilter<
      Self
    >
  {
    Publishers.TryFilter(upstream: self, isIncluded: isIncluded)
  }
}

extension Publishers.Filter {
  /// Fuses two consecutive filters into one.
  @inlinable
  public consuming func filter(_ next: @escaping (Output) -> Bool) -> Publishers.Filter<Upstream> {
    let first = isIncluded
    return Publishers.Filter(upstream: upstream) { first($0) && next($0) }
  }

  /// Fuses a filter and the error-throwing filter after it into one `TryFilter`.
  @inlinable
  public consuming func tryFilter(
    _ next: @escaping (Output) throws -> Bool
  ) -> Publishers.TryFilter<Upstream> {
    let first = isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && next($0) }
  }
}

extension Publishers.TryFilter {
  /// Fuses an error-throwing filter and the filter after it into one `TryFilter`.
  @inlinable
  public consuming func filter(_ next: @escaping (Output) -> Bool) -> Publishers.TryFilter<Upstream>
  {
    let first = isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && next($0) }
  }

  /// Fuses two consecutive error-throwing filters into one.
  @inlinable
  public consuming func tryFilter(
    _ next: @escaping (Output) throws -> Bool
  ) -> Publishers.TryFilter<Upstream> {
    let first = isIncluded
    return Publishers.TryFilter(upstream: upstream) { try first($0) && next($0) }
  }
}

extension Publishers {
  /// A publisher that delivers only the upstream values that satisfy a predicate.
  public struct Filter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are filtered.
    public let upstream: Upstream
    /// The predicate a value must satisfy to be delivered.
    public let isIncluded: (Upstream.Output) -> Bool

    /// Creates a `Filter` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.forward(to: subscriber, through: FilterForwarding(isIncluded: isIncluded))
    }

  }

  /// A publisher that delivers only the upstream values that satisfy an error-throwing predicate.
  public struct TryFilter<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose values are filtered.
    public let upstream: Upstream
    /// The predicate a value must satisfy to be delivered; throwing fails the publisher.
    public let isIncluded: (Upstream.Output) throws -> Bool

    /// Creates a `TryFilter` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, isIncluded: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.isIncluded = isIncluded
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = TryFilterLogic<Upstream.Output, Upstream.Failure>(isIncluded: isIncluded)
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "TryFilter"))
    }
  }
}

/// The logic of `filter`: passes on the values that satisfy its predicate and asks the upstream
/// for one more in place of each other value.
@usableFromInline
internal struct FilterForwarding<Input, Failure: Error>: ForwardingLogic {
  @usableFromInline typealias Output = Input
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline static var operatorName: String { "Filter" }

  @usableFromInline let isIncluded: (Input) -> Bool

  @inlinable
  init(isIncluded: @escaping (Input) -> Bool) {
    self.isIncluded = isIncluded
  }

  @inlinable
  func forward<Downstream: Subscriber>(
    _ input: Input, to downstream: Downstream
  ) -> Subscribers.Demand where Downstream.Input == Output, Downstream.Failure == Failure {
    isIncluded(input) ? downstream.receive(input) : .max(1)
  }
}

@usableFromInline
internal struct TryFilterLogic<Input, UpstreamFailure: Error>: FilterLogic {
  @usableFromInline let isIncluded: (Input) throws -> Bool

  @inlinable
  init(isIncluded: @escaping (Input) throws -> Bool) {
    self.isIncluded = isIncluded
  }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Input, any Error> {
    do {
      return try isIncluded(input) ? .emit(input) : .drop
    } catch {
      return .fail(error)
    }
  }

  @inlinable
  func failure(_ error: UpstreamFailure) -> any Error { error }
}
