extension Publisher {
  /// Drops the first `count` values, then delivers every value.
  ///
  /// As with Combine, the first request asks the upstream for `count` values more than the
  /// downstream asked for, so the dropped values need no request of their own. A negative count
  /// drops nothing.
  ///
  /// ```swift
  /// let cancellable = (1...4).publisher.dropFirst(2).sink { print($0) }  // 3, 4
  /// ```
  @inlinable
  public consuming func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = DropFirstLogic<Output, Failure>(count: count)
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "Drop"))
    }
  }
}

@usableFromInline
internal struct DropFirstLogic<Input, Failure: Error>: FilterLogic {
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline let count: Int
  @usableFromInline var dropped = 0

  @inlinable
  init(count: Int) {
    self.count = count
  }

  @inlinable
  var demandAheadOfFirstRequest: Int { count }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Input, Failure> {
    guard dropped < count else { return .emit(input) }
    dropped += 1
    return .absorb
  }
}
