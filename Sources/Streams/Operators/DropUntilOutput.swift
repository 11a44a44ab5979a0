extension Publisher {
  /// Ignores values until `publisher` publishes its first value, then republishes every value.
  ///
  /// Semantics: the other publisher is asked for one value (its later events are ignored); if it
  /// fails first, the failure is delivered (and the upstream cancelled); if it finishes without
  /// publishing, no value could ever pass, so the stream finishes. Demand is Combine's: the
  /// downstream's requests go to the upstream as they are; a value dropped before the other
  /// publisher published uses up its demand (no other value is asked for in its place); once the
  /// gate is open each value goes straight through and the demand the downstream returns for it
  /// goes back to the upstream. Where Combine then still forwards values, and a second
  /// completion, after such an ending, nothing reaches the downstream after its completion.
  ///
  /// ```swift
  /// sensorReadings.drop(untilOutputFrom: calibrationDone)
  /// ```
  @inlinable
  public func drop<P: Publisher>(untilOutputFrom publisher: P)
    -> Publishers.DropUntilOutput<
      Self, P
    > where P.Failure == Failure
  {
    Publishers.DropUntilOutput(upstream: self, other: publisher)
  }
}

extension Publishers {
  /// A publisher that ignores values until another publisher publishes.
  ///
  /// See ``Publisher/drop(untilOutputFrom:)`` for the semantics.
  public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The upstream publisher.
    public let upstream: Upstream
    /// The publisher whose first value opens the gate.
    public let other: Other

    /// `upstream` from the moment `other` publishes.
    @inlinable
    public init(upstream: Upstream, other: Other) {
      self.upstream = upstream
      self.other = other
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      UntilOutputSubscription<Upstream.Output, Other, S>(
        downstream: subscriber, role: .drop, otherFailure: { $0 }
      )
      .subscribe(upstream, other: other)
    }
  }
}
