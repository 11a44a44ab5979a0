extension Publisher {
  /// Stops the program with a message naming the error if the upstream fails; otherwise passes
  /// everything through, with a failure type of `Never`.
  ///
  /// Use it only where a failure is a programming error.
  ///
  /// - Parameters:
  ///   - prefix: text put before the error in the message.
  ///   - file: the source file named in the message; the caller's by default.
  ///   - line: the source line named in the message; the caller's by default.
  @inlinable
  public func assertNoFailure(
    _ prefix: String = "", file: StaticString = #file, line: UInt = #line
  ) -> Publishers.AssertNoFailure<Self> {
    Publishers.AssertNoFailure(upstream: self, prefix: prefix, file: file, line: line)
  }
}

extension Publishers {
  /// A publisher that traps when its upstream fails.
  public struct AssertNoFailure<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never

    /// The publisher that must not fail.
    public let upstream: Upstream
    /// Text put before the error in the trap message.
    public let prefix: String
    /// The file reported by the trap.
    public let file: StaticString
    /// The line reported by the trap.
    public let line: UInt

    /// Creates a `AssertNoFailure` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, prefix: String, file: StaticString, line: UInt) {
      self.upstream = upstream
      self.prefix = prefix
      self.file = file
      self.line = line
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber: AssertNoFailureSubscriber(
          downstream: subscriber, prefix: prefix, file: file, line: line))
    }
  }
}

/// The subscriber of `assertNoFailure`: passes values and the finish on, and traps on a failure.
///
/// Generic over its upstream failure rather than nested in `Publishers.AssertNoFailure`, so that a
/// chain of operators specialises (see `MapSubscriber`).
@usableFromInline
internal struct AssertNoFailureSubscriber<UpstreamFailure: Error, Downstream: Subscriber>:
  Subscriber, OperatorNamed
{
  @usableFromInline
  typealias Input = Downstream.Input
  @usableFromInline
  typealias Failure = UpstreamFailure

  @usableFromInline
  var operatorName: String { "AssertNoFailure" }

  @usableFromInline let downstream: Downstream
  @usableFromInline let prefix: String
  @usableFromInline let file: StaticString
  @usableFromInline let line: UInt
  @usableFromInline let combineIdentifier = CombineIdentifier()

  @inlinable
  init(downstream: Downstream, prefix: String, file: StaticString, line: UInt) {
    self.downstream = downstream
    self.prefix = prefix
    self.file = file
    self.line = line
  }

  @inlinable
  func receive(subscription: any Subscription) {
    downstream.receive(subscription: subscription)
  }

  @inlinable
  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  @inlinable
  func receive(completion: Subscribers.Completion<UpstreamFailure>) {
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      let lead = prefix.isEmpty ? "" : prefix + ": "
      fatalError("\(lead)unexpected failure: \(error)", file: file, line: line)
    }
  }
}
