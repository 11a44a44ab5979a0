extension Publisher {
  /// Delivers the last value when the upstream finishes; finishes without a value if there was
  /// none.
  ///
  /// Requests unlimited values from the upstream; an upstream failure is forwarded without a value.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher.last().sink { print($0) }  // 3
  /// ```
  @inlinable
  public func last() -> Publishers.Last<Self> {
    Publishers.Last(upstream: self)
  }

  /// Delivers the last value that satisfies `predicate`, when the upstream finishes.
  @inlinable
  public func last(where predicate: @escaping (Output) -> Bool) -> Publishers.LastWhere<Self> {
    Publishers.LastWhere(upstream: self, predicate: predicate)
  }

  /// Delivers the last value that satisfies an error-throwing `predicate`, when the upstream
  /// finishes; if `predicate` throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public func tryLast(
    where predicate: @escaping (Output) throws -> Bool
  ) -> Publishers.TryLastWhere<Self> {
    Publishers.TryLastWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that delivers its upstream's last value.
  public struct Last<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose last value is delivered.
    public let upstream: Upstream

    /// Creates a `Last` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.fold(
        into: subscriber, named: "Last", state: Output?.none,
        step: { last, value in
          last = value
          return .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers its upstream's last value satisfying a predicate.
  public struct LastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The condition the delivered value satisfies.
    public let predicate: (Output) -> Bool

    /// Creates a `LastWhere` publisher from its upstream and parameters.
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
        into: subscriber, named: "LastWhere", state: Output?.none,
        step: { last, value in
          if predicate(value) { last = value }
          return .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers its upstream's last value satisfying an error-throwing predicate.
  public struct TryLastWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The condition the delivered value satisfies; throwing fails the publisher.
    public let predicate: (Output) throws -> Bool

    /// Creates a `TryLastWhere` publisher from its upstream and parameters.
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
        into: subscriber, named: "TryLastWhere", state: Output?.none,
        step: { last, value in
          catchingStep {
            if try predicate(value) { last = value }
            return .proceed
          }
        }, result: { $0 }, convert: { $0 })
    }
  }
}
