extension Publisher {
  /// Delivers `false` as soon as a value fails `predicate` (then cancels the upstream and
  /// finishes), or `true` when the upstream finishes without one (also when it produced nothing).
  ///
  /// ```swift
  /// let cancellable = [2, 4].publisher.allSatisfy { $0.isMultiple(of: 2) }.sink { print($0) }  // true
  /// ```
  @inlinable
  public func allSatisfy(
    _ predicate: @escaping (Output) -> Bool
  ) -> Publishers.AllSatisfy<Self> {
    Publishers.AllSatisfy(upstream: self, predicate: predicate)
  }

  /// Delivers whether every value satisfies an error-throwing `predicate`, like
  /// ``Publisher/allSatisfy(_:)``; if `predicate` throws, the upstream is cancelled and the
  /// publisher fails.
  @inlinable
  public func tryAllSatisfy(
    _ predicate: @escaping (Output) throws -> Bool
  ) -> Publishers.TryAllSatisfy<Self> {
    Publishers.TryAllSatisfy(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that delivers whether every value of its upstream satisfies a predicate.
  public struct AllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are checked.
    public let upstream: Upstream
    /// The condition every value must satisfy.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a `AllSatisfy` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.fold(
        into: subscriber, named: "AllSatisfy", state: true,
        step: { allPass, value in
          allPass = predicate(value)
          return allPass ? .proceed : .finish
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers whether every value of its upstream satisfies an error-throwing
  /// predicate.
  public struct TryAllSatisfy<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = any Error

    /// The publisher whose values are checked.
    public let upstream: Upstream
    /// The condition every value must satisfy; throwing fails the publisher.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a `TryAllSatisfy` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Upstream.Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      upstream.fold(
        into: subscriber, named: "TryAllSatisfy", state: true,
        step: { allPass, value in
          catchingStep {
            allPass = try predicate(value)
            return allPass ? .proceed : .finish
          }
        }, result: { $0 }, convert: { $0 })
    }
  }
}
