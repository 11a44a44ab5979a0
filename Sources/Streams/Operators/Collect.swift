extension Publisher {
  /// Collects every value into an array, delivered when the upstream finishes (an empty array if
  /// there was no value).
  ///
  /// Requests unlimited values from the upstream; an upstream failure is forwarded without the
  /// array.
  ///
  /// ```swift
  /// let cancellable = (1...3).publisher.collect().sink { print($0) }  // [1, 2, 3]
  /// ```
  @inlinable
  public func collect() -> Publishers.Collect<Self> {
    Publishers.Collect(upstream: self)
  }

  /// Collects values into arrays of `count` values, delivering each array when it is full and the
  /// last, partial, array when the upstream finishes.
  ///
  /// A demand for `n` arrays asks the upstream for `n × count` values. On an upstream failure the
  /// partial array is discarded and the failure forwarded. A count below 1 is treated as 1.
  @inlinable
  public func collect(_ count: Int) -> Publishers.CollectByCount<Self> {
    Publishers.CollectByCount(upstream: self, count: Swift.max(1, count))
  }
}

extension Publishers {
  /// A publisher that delivers all its upstream's values as one array when it finishes.
  public struct Collect<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are collected.
    public let upstream: Upstream

    /// Creates a `Collect` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream) {
      self.upstream = upstream
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.fold(
        into: subscriber, named: "Collect", state: [Upstream.Output](),
        step: { values, value in
          values.append(value)
          return .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers its upstream's values in arrays of a given size.
  public struct CollectByCount<Upstream: Publisher>: Publisher {
    public typealias Output = [Upstream.Output]
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are collected.
    public let upstream: Upstream
    /// The size of each array (the last one may be smaller).
    public let count: Int

    /// Creates a `CollectByCount` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = count
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let logic = CollectByCountLogic<Upstream.Output, Failure>(count: Swift.max(1, count))
      upstream.receive(
        subscriber: FilteringSubscriber(
          logic: logic, downstream: subscriber, name: "CollectByCount"))
    }
  }
}

@usableFromInline
internal struct CollectByCountLogic<Input, Failure: Error>: FilterLogic {
  @usableFromInline typealias UpstreamFailure = Failure
  @usableFromInline let count: Int
  @usableFromInline var buffer: [Input] = []

  @inlinable
  init(count: Int) {
    self.count = count
    buffer.reserveCapacity(count)
  }

  @inlinable
  var demandMultiplier: Int { count }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<[Input], Failure> {
    buffer.append(input)
    guard buffer.count == count else { return .absorb }
    defer { buffer = [] }
    return .emit(buffer)
  }

  @inlinable
  mutating func flush() -> [Input]? {
    guard !buffer.isEmpty else { return nil }
    defer { buffer = [] }
    return buffer
  }
}
