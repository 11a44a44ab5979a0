extension Publisher {
  /// Merges this publisher with `other`: values of both, interleaved in arrival order.
  ///
  /// Semantics (as Combine's): the merge finishes when every upstream has finished and fails as
  /// soon as one fails (cancelling the others). With finite demand each upstream is asked for
  /// one value at a time, so no upstream runs ahead of the downstream by more than one value.
  /// Calls into the downstream never overlap, whatever the upstreams' threads.
  ///
  /// ```swift
  /// local.merge(with: remote).sink { print($0) }
  /// ```
  @inlinable
  public func merge<B: Publisher>(with b: B) -> Publishers.Merge<Self, B>
  where B.Output == Output, B.Failure == Failure {
    Publishers.Merge(self, b)
  }
}

extension Publishers {
  /// A publisher of the values of 2 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge<A: Publisher, B: Publisher>: Publisher
  where B.Output == A.Output, B.Failure == A.Failure {
    public typealias Output = A.Output
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 2)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
    }
  }
}
