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
      upstream.forward(
        to: subscriber,
        through: AssertNoFailureForwarding(prefix: prefix, file: file, line: line))
    }
  }
}

/// The logic of `assertNoFailure`: passes the finish on and traps on a failure.
@usableFromInline
internal struct AssertNoFailureForwarding<Input, UpstreamFailure: Error>: ForwardingLogic {
  @usableFromInline typealias Output = Input
  @usableFromInline typealias Failure = Never
  @usableFromInline static var operatorName: String { "AssertNoFailure" }

  @usableFromInline let prefix: String
  @usableFromInline let file: StaticString
  @usableFromInline let line: UInt

  @inlinable
  init(prefix: String, file: StaticString, line: UInt) {
    self.prefix = prefix
    self.file = file
    self.line = line
  }

  @inlinable
  func forward<Downstream: Subscriber>(
    completion: Subscribers.Completion<UpstreamFailure>, to downstream: Downstream
  ) where Downstream.Input == Output, Downstream.Failure == Failure {
    switch completion {
    case .finished:
      downstream.receive(completion: .finished)
    case .failure(let error):
      let lead = prefix.isEmpty ? "" : prefix + ": "
      fatalError("\(lead)unexpected failure: \(error)", file: file, line: line)
    }
  }
}
