extension Publisher {
  /// Combines all values with `nextPartialResult`, starting from `initialResult`, and delivers the
  /// final result when the upstream finishes.
  ///
  /// Requests unlimited values from the upstream; the result is delivered once the downstream
  /// asks for a value. An upstream failure is forwarded without a result.
  ///
  /// ```swift
  /// let cancellable = (1...4).publisher.reduce(0, +).sink { print($0) }  // 10
  /// ```
  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Reduce<Self, T> {
    Publishers.Reduce(
      upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Combines all values with an error-throwing `nextPartialResult` and delivers the final result
  /// when the upstream finishes; if the closure throws, the upstream is cancelled and the
  /// publisher fails.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryReduce<Self, T> {
    Publishers.TryReduce(
      upstream: self, initial: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that delivers the combination of all its upstream's values when it finishes.
  public struct Reduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are combined.
    public let upstream: Upstream
    /// The result the combination starts from; each subscription starts from it afresh.
    public let initial: Output
    /// The combination of the previous result and a value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a `Reduce` publisher from its upstream and parameters.
    @inlinable
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combine = nextPartialResult
      upstream.fold(
        into: subscriber, named: "Reduce", state: initial,
        step: { result, value in
          result = combine(result, value)
          return .proceed
        }, result: { $0 }, convert: { $0 })
    }
  }

  /// A publisher that delivers the error-throwing combination of all its upstream's values.
  public struct TryReduce<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher whose values are combined.
    public let upstream: Upstream
    /// The result the combination starts from; each subscription starts from it afresh.
    public let initial: Output
    /// The combination of the previous result and a value; throwing fails the publisher.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a `TryReduce` publisher from its upstream and parameters.
    @inlinable
    public init(
      upstream: Upstream, initial: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initial = initial
      self.nextPartialResult = nextPartialResult
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combine = nextPartialResult
      upstream.fold(
        into: subscriber, named: "TryReduce", state: initial,
        step: { result, value in
          catchingStep {
            result = try combine(result, value)
            return .proceed
          }
        }, result: { $0 }, convert: { $0 })
    }
  }
}
