extension Publisher {
  /// Ignores values until `publisher` publishes its first value, then republishes every value.
  ///
  /// Semantics: the other publisher is asked for one value and cancelled after it; if it fails
  /// first, the failure is delivered (and the upstream cancelled); if it finishes without
  /// publishing, no value could ever pass, so the stream finishes. Demand passes through to the
  /// upstream; each ignored value is replaced by a request for one more.
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

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      OtherPublisherSubscription<Upstream.Output, Other, S>(
        downstream: subscriber, role: .dropUntil,
        select: { value, trigger in trigger == nil ? nil : value }, failure: { $0 }
      )
      .subscribe(upstream, other: other)
    }
  }
}
