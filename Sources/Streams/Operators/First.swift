extension Publisher {
  /// Delivers the first value, then cancels the upstream and finishes; finishes without a value
  /// if the upstream finishes empty.
  ///
  /// Requests unlimited values from the upstream; the value is delivered once the downstream asks
  /// for one.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher.first().sink { print($0) }  // 1
  /// ```
  @inlinable
  public func first() -> Publishers.First<Self> {
    Publishers.First(upstream: self)
  }

  /// Delivers the first value that satisfies `predicate`, then cancels the upstream and finishes.
  @inlinable
  public func first(where predicate: @escaping (Output) -> Bool) -> Publishers.FirstWhere<Self> {
    Publishers.FirstWhere(upstream: self, predicate: predicate)
  }

  /// Delivers the first value that satisfies an error-throwing `predicate`, then cancels the
  /// upstream and finishes; if `predicate` throws, the upstream is cancelled and the publisher
  /// fails.
  @inlinable
  public func tryFirst(
    where predicate: @escaping (Output) throws -> Bool
  ) -> Publishers.TryFirstWhere<Self> {
    Publishers.TryFirstWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that delivers its upstream's first value.
  public struct First<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose first value is delivered.
    public let upstream: Upstream

    /// Creates a `First` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.fold(
        into: subscriber, named: "First", state: Output?.none,
        step: { found, value in
          found = value
          return .finish
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers its upstream's first value satisfying a predicate.
  public struct FirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The condition the delivered value satisfies.
    public let predicate: (Output) -> Bool

    /// Creates a `FirstWhere` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.fold(
        into: subscriber, named: "FirstWhere", state: Output?.none,
        step: { found, value in
          guard predicate(value) else { return .proceed }
          found = value
          return .finish
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers its upstream's first value satisfying an error-throwing predicate.
  public struct TryFirstWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The condition the delivered value satisfies; throwing fails the publisher.
    public let predicate: (Output) throws -> Bool

    /// Creates a `TryFirstWhere` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.fold(
        into: subscriber, named: "TryFirstWhere", state: Output?.none,
        step: { found, value in
          catchingStep {
            guard try predicate(value) else { return .proceed }
            found = value
            return .finish
          }
        }, result: { $0 }, convert: { $0 })
    }
  }
}
