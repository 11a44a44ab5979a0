extension Publisher where Output: Comparable {
  /// Delivers the smallest value when the upstream finishes (the first of equal smallest values);
  /// finishes without a value if there was none.
  ///
  /// ```swift
  /// let cancellable = [3, 1, 2].publisher.min().sink { print($0) }  // 1
  /// ```
  @inlinable
  public func min() -> Publishers.Comparison<Self> {
    min(by: <)
  }

  /// Delivers the largest value when the upstream finishes (the first of equal largest values);
  /// finishes without a value if there was none.
  @inlinable
  public func max() -> Publishers.Comparison<Self> {
    max(by: <)
  }
}

extension Publisher {
  /// Delivers the smallest value by `areInIncreasingOrder` when the upstream finishes.
  ///
  /// Requests unlimited values from the upstream; an upstream failure is forwarded without a value.
  @inlinable
  public func min(
    by areInIncreasingOrder: @escaping (Output, Output) -> Bool
  ) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self) { kept, new in areInIncreasingOrder(new, kept) }
  }

  /// Delivers the largest value by `areInIncreasingOrder` when the upstream finishes.
  @inlinable
  public func max(
    by areInIncreasingOrder: @escaping (Output, Output) -> Bool
  ) -> Publishers.Comparison<Self> {
    Publishers.Comparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }

  /// Delivers the smallest value by an error-throwing `areInIncreasingOrder` when the upstream
  /// finishes; if it throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public func tryMin(
    by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryComparison<Self> {
    Publishers.TryComparison(upstream: self) { kept, new in try areInIncreasingOrder(new, kept) }
  }

  /// Delivers the largest value by an error-throwing `areInIncreasingOrder` when the upstream
  /// finishes; if it throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public func tryMax(
    by areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryComparison<Self> {
    Publishers.TryComparison(upstream: self, areInIncreasingOrder: areInIncreasingOrder)
  }
}

extension Publishers {
  /// A publisher that delivers the extreme value of its upstream by an ordering, when it finishes.
  ///
  /// A new value replaces the kept one when `areInIncreasingOrder(kept, new)`.
  public struct Comparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are compared.
    public let upstream: Upstream
    /// Whether the new value (second argument) replaces the kept value (first argument).
    public let areInIncreasingOrder: (Output, Output) -> Bool

    /// Creates a `Comparison` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, areInIncreasingOrder: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let replaces = areInIncreasingOrder
      upstream.fold(
        into: subscriber, named: "Comparison", state: Output?.none,
        step: { kept, value in
          if let current = kept, !replaces(current, value) { return .proceed }
          kept = value
          return .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers the extreme value of its upstream by an error-throwing ordering.
  ///
  /// A new value replaces the kept one when `areInIncreasingOrder(kept, new)`.
  public struct TryComparison<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose values are compared.
    public let upstream: Upstream
    /// Whether the new value replaces the kept value; throwing fails the publisher.
    public let areInIncreasingOrder: (Output, Output) throws -> Bool

    /// Creates a `TryComparison` publisher from its upstream and parameters.
    @inlinable
    public init(
      upstream: Upstream, areInIncreasingOrder: @escaping (Output, Output) throws -> Bool
    ) {
      self.upstream = upstream
      self.areInIncreasingOrder = areInIncreasingOrder
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let replaces = areInIncreasingOrder
      upstream.fold(
        into: subscriber, named: "TryComparison", state: Output?.none,
        step: { kept, value in
          catchingStep {
            if let current = kept, try !replaces(current, value) { return .proceed }
            kept = value
            return .proceed
          }
        }, result: { $0 }, convert: { $0 })
    }
  }
}
