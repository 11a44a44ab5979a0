extension Publisher {
  /// Merges this publisher with 5 others; see ``merge(with:)``.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F
  ) -> Publishers.Merge6<Self, B, C, D, E, F>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
    F.Output == Output, F.Failure == Failure
  {
    Publishers.Merge6(self, b, c, d, e, f)
  }
}

extension Publishers {
  /// A publisher of the values of 6 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge6<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher
  >: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure,
    F.Output == A.Output, F.Failure == A.Failure
  {
    public typealias Output = A.Output
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C
    /// Upstream 4.
    public let d: D
    /// Upstream 5.
    public let e: E
    /// Upstream 6.
    public let f: F

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 6)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
      d.receive(subscriber: merge.link(3))
      e.receive(subscriber: merge.link(4))
      f.receive(subscriber: merge.link(5))
    }
  }
}
