extension Publisher {
  /// Delivers each intermediate result of combining the values with `nextPartialResult`, starting
  /// from `initialResult`.
  ///
  /// Demand passes through: one result per upstream value.
  ///
  /// ```swift
  /// let cancellable = (1...4).publisher.scan(0, +).sink { print($0) }  // 1, 3, 6, 10
  /// ```
  @inlinable
  public consuming func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) -> T
  ) -> Publishers.Scan<Self, T> {
    Publishers.Scan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }

  /// Delivers each intermediate result of an error-throwing combination of the values.
  ///
  /// If `nextPartialResult` throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public consuming func tryScan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Output) throws -> T
  ) -> Publishers.TryScan<Self, T> {
    Publishers.TryScan(
      upstream: self, initialResult: initialResult, nextPartialResult: nextPartialResult)
  }
}

extension Publishers {
  /// A publisher that delivers the running combination of its upstream's values.
  public struct Scan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are combined.
    public let upstream: Upstream
    /// The result the combination starts from; each subscription starts from it afresh.
    public let initialResult: Output
    /// The combination of the previous result and a value.
    public let nextPartialResult: (Output, Upstream.Output) -> Output

    /// Creates a `Scan` publisher from its upstream and parameters.
    @inlinable
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combine = nextPartialResult
      let logic = ScanLogic<Upstream.Output, Output, Failure, Failure>(
        accumulator: initialResult, combine: .plain(combine))
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "Scan"))
    }
  }

  /// A publisher that delivers the running error-throwing combination of its upstream's values.
  public struct TryScan<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = any Error

    /// The publisher whose values are combined.
    public let upstream: Upstream
    /// The result the combination starts from; each subscription starts from it afresh.
    public let initialResult: Output
    /// The combination of the previous result and a value; throwing fails the publisher.
    public let nextPartialResult: (Output, Upstream.Output) throws -> Output

    /// Creates a `TryScan` publisher from its upstream and parameters.
    @inlinable
    public init(
      upstream: Upstream, initialResult: Output,
      nextPartialResult: @escaping (Output, Upstream.Output) throws -> Output
    ) {
      self.upstream = upstream
      self.initialResult = initialResult
      self.nextPartialResult = nextPartialResult
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combine = nextPartialResult
      let logic = ScanLogic<Upstream.Output, Output, Upstream.Failure, any Error>(
        accumulator: initialResult,
        combine: .throwing(combine),
        convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "TryScan"))
    }
  }
}

@usableFromInline
internal struct ScanLogic<Input, Output, UpstreamFailure: Error, Failure: Error>: FilterLogic {
  @usableFromInline var accumulator: Output
  @usableFromInline let combine: BinaryOperatorClosure<Output, Input, Output, Failure>
  @usableFromInline let convert: (UpstreamFailure) -> Failure

  @inlinable
  init(
    accumulator: Output, combine: BinaryOperatorClosure<Output, Input, Output, Failure>,
    convert: @escaping (UpstreamFailure) -> Failure
  ) {
    self.accumulator = accumulator
    self.combine = combine
    self.convert = convert
  }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Output, Failure> {
    switch combine(accumulator, input) {
    case .success(let next):
      accumulator = next
      return .emit(next)
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { convert(error) }
}

extension ScanLogic where UpstreamFailure == Failure {
  @inlinable
  init(accumulator: Output, combine: BinaryOperatorClosure<Output, Input, Output, Failure>) {
    self.init(accumulator: accumulator, combine: combine, convert: { $0 })
  }
}
