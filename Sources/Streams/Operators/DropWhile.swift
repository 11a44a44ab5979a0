extension Publisher {
  /// Drops values while `predicate` holds, then delivers every value from the first one that
  /// fails it (the predicate is not called again).
  ///
  /// A dropped value is replaced by a request for one more upstream value.
  ///
  /// ```swift
  /// let cancellable = [1, 2, 5, 1].publisher.drop { $0 < 3 }.sink { print($0) }  // 5, 1
  /// ```
  @inlinable
  public consuming func drop(while predicate: @escaping (Output) -> Bool)
    -> Publishers.DropWhile<Self>
  {
    Publishers.DropWhile(upstream: self, predicate: predicate)
  }

  /// Drops values while an error-throwing `predicate` holds, then delivers every value; if
  /// `predicate` throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public consuming func tryDrop(
    while predicate: @escaping (Output) throws -> Bool
  ) -> Publishers.TryDropWhile<Self> {
    Publishers.TryDropWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that drops its upstream's leading values while a predicate holds.
  public struct DropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose leading values are dropped.
    public let upstream: Upstream
    /// The condition under which leading values are dropped.
    public let predicate: (Output) -> Bool

    /// Creates a `DropWhile` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      let logic = WhileLogic<Output, Failure, Failure>(
        isPrefix: false, predicate: .plain(predicate), convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "DropWhile"))
    }
  }

  /// A publisher that drops its upstream's leading values while an error-throwing predicate holds.
  public struct TryDropWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose leading values are dropped.
    public let upstream: Upstream
    /// The condition under which leading values are dropped; throwing fails the publisher.
    public let predicate: (Output) throws -> Bool

    /// Creates a `TryDropWhile` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      let logic = WhileLogic<Output, Upstream.Failure, any Error>(
        isPrefix: false, predicate: .throwing(predicate), convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "TryDropWhile"))
    }
  }
}
