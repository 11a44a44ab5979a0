extension Publisher {
  /// Delivers the number of values the upstream produced, when it finishes.
  ///
  /// Requests unlimited values from the upstream; an upstream failure is forwarded without a
  /// count.
  ///
  /// ```swift
  /// let cancellable = ["a", "b"].publisher.count().sink { print($0) }  // 2
  /// ```
  @inlinable
  public func count() -> Publishers.Count<Self> {
    Publishers.Count(upstream: self)
  }
}

extension Publishers {
  /// A publisher that delivers how many values its upstream produced.
  public struct Count<Upstream: Publisher>: Publisher {
    public typealias Output = Int
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are counted.
    public let upstream: Upstream

    /// Creates a `Count` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.fold(
        into: subscriber, named: "Count", state: 0,
        step: { count, _ in
          count += 1
          return .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }
}
