extension Publisher {
  /// Publishes, for each value, the latest value of `other` combined with it by
  /// `resultSelector`.
  ///
  /// Semantics: only this publisher's values trigger output; a value arriving before `other` has
  /// published is dropped (and replaced by a request for one more, so demand is not lost);
  /// `other` is asked for unlimited values and its finish is ignored (its latest value stays in
  /// use); the result finishes when this publisher finishes; a failure of either is delivered
  /// and cancels the other.
  ///
  /// ```swift
  /// submitTaps.withLatestFrom(formState) { _, form in form }
  /// ```
  @inlinable
  public func withLatestFrom<Other: Publisher, Result>(
    _ other: Other, resultSelector: @escaping (Output, Other.Output) -> Result
  ) -> Publishers.WithLatestFrom<Self, Other, Result> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, other: other, resultSelector: resultSelector)
  }

  /// Publishes, for each value, the latest value of `other`; see
  /// ``withLatestFrom(_:resultSelector:)``.
  @inlinable
  public func withLatestFrom<Other: Publisher>(
    _ other: Other
  ) -> Publishers.WithLatestFrom<Self, Other, Other.Output> where Other.Failure == Failure {
    Publishers.WithLatestFrom(upstream: self, other: other) { $1 }
  }
}

extension Publishers {
  /// A publisher combining each upstream value with another publisher's latest value.
  ///
  /// See ``Publisher/withLatestFrom(_:resultSelector:)`` for the semantics.
  public struct WithLatestFrom<Upstream: Publisher, Other: Publisher, Output>: Publisher
  where Upstream.Failure == Other.Failure {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values trigger output.
    public let upstream: Upstream
    /// The publisher whose latest value is used.
    public let other: Other
    /// Combines an upstream value with the other's latest value.
    public let resultSelector: (Upstream.Output, Other.Output) -> Output

    /// `upstream` combined with the latest value of `other`.
    @inlinable
    public init(
      upstream: Upstream, other: Other,
      resultSelector: @escaping (Upstream.Output, Other.Output) -> Output
    ) {
      self.upstream = upstream
      self.other = other
      self.resultSelector = resultSelector
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let resultSelector = self.resultSelector
      OtherPublisherSubscription<Upstream.Output, Other, S>(
        downstream: subscriber, role: .withLatest,
        select: { value, latest in latest.map { resultSelector(value, $0) } },
        failure: { $0 }
      )
      .subscribe(upstream, other: other)
    }
  }
}
