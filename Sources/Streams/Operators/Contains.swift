extension Publisher where Output: Equatable {
  /// Delivers `true` as soon as a value equals `output` (then cancels the upstream and finishes),
  /// or `false` when the upstream finishes without one.
  ///
  /// ```swift
  /// let cancellable = (1...5).publisher.contains(3).sink { print($0) }  // true
  /// ```
  @inlinable
  public func contains(_ output: Output) -> Publishers.Contains<Self> {
    Publishers.Contains(upstream: self, output: output)
  }
}

extension Publisher {
  /// Delivers `true` as soon as a value satisfies `predicate` (then cancels the upstream and
  /// finishes), or `false` when the upstream finishes without one.
  @inlinable
  public func contains(
    where predicate: @escaping (Output) -> Bool
  ) -> Publishers.ContainsWhere<Self> {
    Publishers.ContainsWhere(upstream: self, predicate: predicate)
  }

  /// Delivers whether a value satisfies an error-throwing `predicate`, like
  /// ``Publisher/contains(where:)``; if `predicate` throws, the upstream is cancelled and the
  /// publisher fails.
  @inlinable
  public func tryContains(
    where predicate: @escaping (Output) throws -> Bool
  ) -> Publishers.TryContainsWhere<Self> {
    Publishers.TryContainsWhere(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that delivers whether its upstream produced a given value.
  public struct Contains<Upstream: Publisher>: Publisher where Upstream.Output: Equatable {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The value searched for.
    public let output: Upstream.Output

    /// Creates a `Contains` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let wanted = output
      upstream.fold(
        into: subscriber, named: "Contains", state: false,
        step: { found, value in
          found = value == wanted
          return found ? .finish : .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers whether its upstream produced a value satisfying a predicate.
  public struct ContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The condition searched for.
    public let predicate: (Upstream.Output) -> Bool

    /// Creates a `ContainsWhere` publisher from its upstream and parameters.
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
        into: subscriber, named: "ContainsWhere", state: false,
        step: { found, value in
          found = predicate(value)
          return found ? .finish : .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers whether its upstream produced a value satisfying an
  /// error-throwing predicate.
  public struct TryContainsWhere<Upstream: Publisher>: Publisher {
    public typealias Output = Bool
    public typealias Failure = any Error

    /// The publisher whose values are searched.
    public let upstream: Upstream
    /// The condition searched for; throwing fails the publisher.
    public let predicate: (Upstream.Output) throws -> Bool

    /// Creates a `TryContainsWhere` publisher from its upstream and parameters.
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
        into: subscriber, named: "TryContainsWhere", state: false,
        step: { found, value in
          catchingStep {
            found = try predicate(value)
            return found ? .finish : .proceed
          }
        }, result: { $0 }, convert: { $0 })
    }
  }
}
