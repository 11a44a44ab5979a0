extension Publisher {
  /// Delivers `output` if the upstream finishes without producing any value; otherwise passes
  /// everything through. Failures are forwarded unchanged.
  ///
  /// The replacement is delivered only when the downstream has demand for it; if it has none when
  /// the upstream finishes, the replacement and `.finished` wait for its next request.
  ///
  /// ```swift
  /// let cancellable = [Int]().publisher.replaceEmpty(with: 0).sink { print($0) }  // 0
  /// ```
  @inlinable
  public func replaceEmpty(with output: Output) -> Publishers.ReplaceEmpty<Self> {
    Publishers.ReplaceEmpty(upstream: self, output: output)
  }
}

extension Publishers {
  /// A publisher that delivers a replacement value when its upstream finishes empty.
  public struct ReplaceEmpty<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher whose emptiness is replaced.
    public let upstream: Upstream
    /// The value delivered if the upstream finishes without any value.
    public let output: Upstream.Output

    /// Creates a `ReplaceEmpty` publisher from its upstream and parameters.
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
          ReplacingSubscriber<Failure, S>(
            downstream: subscriber, replacement: output, replacesEmpty: true, convert: { $0 }))
    }
  }
}
