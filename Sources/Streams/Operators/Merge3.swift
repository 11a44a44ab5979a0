extension Publisher {
  /// Merges this publisher with 2 others; see ``merge(with:)``.
  @inlinable
  public func merge<B: Publisher, C: Publisher>(
    with b: B, _ c: C
  ) -> Publishers.Merge3<Self, B, C>
  where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
    Publishers.Merge3(self, b, c)
  }
}

extension Publishers {
  /// A publisher of the values of 3 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure {
    public typealias Output = A.Output
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 3)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
    }
  }
}
