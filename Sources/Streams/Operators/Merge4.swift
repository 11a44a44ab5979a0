extension Publisher {
  /// Merges this publisher with 3 others; see ``merge(with:)``.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher>(
    with b: B, _ c: C, _ d: D
  ) -> Publishers.Merge4<Self, B, C, D>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure
  {
    Publishers.Merge4(self, b, c, d)
  }
}

extension Publishers {
  /// A publisher of the values of 4 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure
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

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 4)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
      d.receive(subscriber: merge.link(3))
    }
  }
}
