extension Publisher {
  /// Replaces a failure with `output` followed by `.finished`; values pass through. The resulting
  /// publisher cannot fail.
  ///
  /// The replacement is delivered only when the downstream has demand for it; if it has none when
  /// the upstream fails, the replacement and `.finished` wait for its next request.
  ///
  /// ```swift
  /// let safe = fetchCount().replaceError(with: 0)
  /// ```
  @inlinable
  public func replaceError(with output: Output) -> Publishers.ReplaceError<Self> {
    Publishers.ReplaceError(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that replaces its upstream's failure with a value and `.finished`.
  public struct ReplaceError<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Never

    /// The publisher whose failure is replaced.
    public let upstream: Upstream
    /// The value delivered in place of a failure.
    public let output: Upstream.Output

    /// Creates a `ReplaceError` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, output: Upstream.Output) {
      self.upstream = upstream
      self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      upstream.receive(
        subscriber:
          ReplacingSubscriber<Upstream.Failure, S>(
            downstream: subscriber, replacement: output, replacesEmpty: false, convert: { _ in nil }
          ))
    }
  }
}
