extension Publisher where Output: Equatable {
  /// Delivers only values that differ from the previously delivered value.
  ///
  /// A dropped value is replaced by a request for one more upstream value.
  ///
  /// ```swift
  /// let cancellable = [1, 1, 2, 2, 1].publisher.removeDuplicates().sink { print($0) }  // 1, 2, 1
  /// ```
  @inlinable
  public consuming func removeDuplicates() -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: ==)
  }
}

extension Publisher {
  /// Delivers only values that `predicate` does not consider duplicates of the previously
  /// delivered value (as in Combine, a dropped value is not compared against later).
  ///
  /// - Parameter predicate: returns true when its second argument (the new value) duplicates its
  ///   first (the previously delivered value), in which case the new value is dropped.
  @inlinable
  public consuming func removeDuplicates(
    by predicate: @escaping (Output, Output) -> Bool
  ) -> Publishers.RemoveDuplicates<Self> {
    Publishers.RemoveDuplicates(upstream: self, predicate: predicate)
  }

  /// Delivers only values that an error-throwing `predicate` does not consider duplicates of the
  /// previously delivered value; if `predicate` throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public consuming func tryRemoveDuplicates(
    by predicate: @escaping (Output, Output) throws -> Bool
  ) -> Publishers.TryRemoveDuplicates<Self> {
    Publishers.TryRemoveDuplicates(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that drops values equal, by a predicate, to the value it delivered last.
  public struct RemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose duplicates are dropped.
    public let upstream: Upstream
    /// Whether the new value (second argument) duplicates the last delivered one (first argument).
    public let predicate: (Output, Output) -> Bool

    /// Creates a `RemoveDuplicates` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output, Output) -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      let logic = RemoveDuplicatesLogic<Output, Failure, Failure>(
        isDuplicate: .plain(predicate), convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(
          logic: logic, downstream: subscriber, name: "RemoveDuplicates"))
    }
  }

  /// A publisher that drops values an error-throwing predicate considers duplicates.
  public struct TryRemoveDuplicates<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose duplicates are dropped.
    public let upstream: Upstream
    /// Whether the new value duplicates the previous one; throwing fails the publisher.
    public let predicate: (Output, Output) throws -> Bool

    /// Creates a `TryRemoveDuplicates` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, predicate: @escaping (Output, Output) throws -> Bool) {
      self.upstream = upstream
      self.predicate = predicate
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let predicate = self.predicate
      let logic = RemoveDuplicatesLogic<Output, Upstream.Failure, any Error>(
        isDuplicate: .throwing(predicate),
        convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(
          logic: logic, downstream: subscriber, name: "TryRemoveDuplicates"))
    }
  }
}

@usableFromInline
internal struct RemoveDuplicatesLogic<Input, UpstreamFailure: Error, Failure: Error>: FilterLogic {
  @usableFromInline var previous: Input?
  @usableFromInline let isDuplicate: BinaryOperatorClosure<Input, Input, Bool, Failure>
  @usableFromInline let convert: (UpstreamFailure) -> Failure

  @inlinable
  init(
    isDuplicate: BinaryOperatorClosure<Input, Input, Bool, Failure>,
    convert: @escaping (UpstreamFailure) -> Failure
  ) {
    self.isDuplicate = isDuplicate
    self.convert = convert
  }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Input, Failure> {
    guard let previous else {
      self.previous = input
      return .emit(input)
    }
    switch isDuplicate(previous, input) {
    case .success(true):
      return .drop
    case .success(false):
      self.previous = input
      return .emit(input)
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { convert(error) }
}
