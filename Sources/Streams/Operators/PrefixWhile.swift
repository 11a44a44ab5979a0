extension Publisher {
  /// Delivers values while `predicate` holds; at the first value that fails it, cancels the
  /// upstream and finishes (that value is not delivered).
  ///
  /// ```swift
  /// let cancellable = [1, 2, 5, 1].publisher.prefix { $0 < 3 }.sink { print($0) }  // 1, 2
  /// ```
  @inlinable
  public func prefix(while predicate: @escaping (Output) -> Bool) -> Publishers.PrefixWhile<Self> {
    Publishers.PrefixWhile(upstream: self, predicate: predicate)
  }

  /// Delivers values while an error-throwing `predicate` holds, then cancels the upstream and
  /// finishes; if `predicate` throws, the upstream is cancelled and the publisher fails.
  @inlinable
  public func tryPrefix(
    while predicate: @escaping (Output) throws -> Bool
  ) -> Publishers.TryPrefixWhile<Self> {
    Publishers.TryPrefixWhile(upstream: self, predicate: predicate)
  }
}

extension Publishers {
  /// A publisher that delivers its upstream's values while a predicate holds, then finishes.
  public struct PrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose leading values are delivered.
    public let upstream: Upstream
    /// The condition a value must satisfy to be delivered.
    public let predicate: (Output) -> Bool

    /// Creates a `PrefixWhile` publisher from its upstream and parameters.
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
        isPrefix: true, predicate: .plain(predicate), convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(logic: logic, downstream: subscriber, name: "PrefixWhile"))
    }
  }

  /// A publisher that delivers its upstream's values while an error-throwing predicate holds.
  public struct TryPrefixWhile<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = any Error

    /// The publisher whose leading values are delivered.
    public let upstream: Upstream
    /// The condition a value must satisfy to be delivered; throwing fails the publisher.
    public let predicate: (Output) throws -> Bool

    /// Creates a `TryPrefixWhile` publisher from its upstream and parameters.
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
        isPrefix: true, predicate: .throwing(predicate), convert: { $0 })
      upstream.receive(
        subscriber: FilteringSubscriber(
          logic: logic, downstream: subscriber, name: "TryPrefixWhile"))
    }
  }
}

/// The logic of `prefix(while:)` and `drop(while:)` and their throwing variants.
@usableFromInline
internal struct WhileLogic<Input, UpstreamFailure: Error, Failure: Error>: FilterLogic {
  @usableFromInline let isPrefix: Bool
  @usableFromInline var isWhileOver = false
  @usableFromInline let predicate: UnaryOperatorClosure<Input, Bool, Failure>
  @usableFromInline let convert: (UpstreamFailure) -> Failure

  @inlinable
  init(
    isPrefix: Bool, predicate: UnaryOperatorClosure<Input, Bool, Failure>,
    convert: @escaping (UpstreamFailure) -> Failure
  ) {
    self.isPrefix = isPrefix
    self.predicate = predicate
    self.convert = convert
  }

  @inlinable
  mutating func receive(_ input: Input) -> FilterStep<Input, Failure> {
    if isWhileOver { return .emit(input) }
    switch predicate(input) {
    case .success(true):
      return isPrefix ? .emit(input) : .drop
    case .success(false):
      if isPrefix { return .finish }
      isWhileOver = true
      return .emit(input)
    case .failure(let error):
      return .fail(error)
    }
  }

  @inlinable
  func failure(_ error: UpstreamFailure) -> Failure { convert(error) }
}
