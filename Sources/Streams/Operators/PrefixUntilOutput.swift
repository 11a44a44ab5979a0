extension Publisher {
  /// Republishes values until `publisher` publishes its first value, then finishes.
  ///
  /// Semantics (as Combine's): when the other publisher publishes, the upstream and the other
  /// publisher are cancelled and the downstream finishes; if the other publisher completes
  /// (finish or failure) without publishing, it is ignored and values keep flowing. Demand passes
  /// through to the upstream.
  ///
  /// ```swift
  /// ticks.prefix(untilOutputFrom: stopButtonTaps)
  /// ```
  @inlinable
  public func prefix<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.PrefixUntilOutput<
      Self, P
    >
  {
    Publishers.PrefixUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that republishes until another publisher publishes.
  ///
  /// See ``Publisher/prefix(untilOutputFrom:)`` for the semantics.
  public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The publisher whose first value ends the stream.
    public let other: Other

    /// `upstream` until `other` publishes.
    @inlinable
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      OtherPublisherSubscription<Upstream.Output, Other, S>(
        downstream: subscriber, role: .prefixUntil, select: { value, _ in value }, failure: nil
      )
      .subscribe(upstream, other: other)
    }
  }
}
