extension Publisher {
  /// Merges this publisher with 7 others; see ``merge(with:)``.
  @inlinable
  public func merge<
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher, H: Publisher
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H
  ) -> Publishers.Merge8<Self, B, C, D, E, F, G, H>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
    F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure,
    H.Output == Output, H.Failure == Failure
  {
    Publishers.Merge8(self, b, c, d, e, f, g, h)
  }
}

extension Publishers {
  /// A publisher of the values of 8 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge8<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher,
    G: Publisher, H: Publisher
  >: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure,
    F.Output == A.Output, F.Failure == A.Failure, G.Output == A.Output, G.Failure == A.Failure,
    H.Output == A.Output, H.Failure == A.Failure
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
    /// Upstream 7.
    public let g: G
    /// Upstream 8.
    public let h: H

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G, _ h: H) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
      self.h = h
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 8)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
      d.receive(subscriber: merge.link(3))
      e.receive(subscriber: merge.link(4))
      f.receive(subscriber: merge.link(5))
      g.receive(subscriber: merge.link(6))
      h.receive(subscriber: merge.link(7))
    }
  }
}
