extension Publisher {
  /// Republishes values until `publisher` publishes its first value, then finishes.
  ///
  /// Semantics (as Combine's): the other publisher is asked for one value; when it publishes,
  /// the upstream is cancelled and the downstream finishes; if it completes (finish or failure)
  /// without publishing, it is ignored and values keep flowing. Demand is Combine's: the
  /// downstream's requests go to the upstream as they are, each value goes straight through and
  /// the demand the downstream returns for it goes back to the upstream. The upstream finishing
  /// cancels the other publisher.
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      UntilOutputSubscription<Upstream.Output, Other, S>(
        downstream: subscriber, role: .prefix, otherFailure: nil
      )
      .subscribe(upstream, other: other)
    }
  }
}
