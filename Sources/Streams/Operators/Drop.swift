extension Publisher {
  /// Drops the first `count` values, then delivers every value.
  ///
  /// Each dropped value is replaced by a request for one more upstream value. A negative count
  /// drops nothing.
  ///
  /// ```swift
  /// let cancellable = (1...4).publisher.dropFirst(2).sink { print($0) }  // 3, 4
  /// ```
  @inlinable
  public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
    Publishers.Drop(upstream: self, count: Swift.max(0, count))
  }
}

extension Publishers {
  /// A publisher that drops a number of its upstream's first values.
  public struct Drop<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose first values are dropped.
    public let upstream: Upstream
    /// How many values to drop.
    public let count: Int

    /// Creates a `Drop` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = OutputLogic<Output, Failure>(range: count..<Int.max)
      upstream.receive(subscriber: FilteringSubscriber(logic: logic, downstream: subscriber))
    }
  }
}
