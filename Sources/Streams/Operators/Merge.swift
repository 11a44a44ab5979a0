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

  /// Merges this publisher with 2 others; see ``merge(with:)``.
  @inlinable
  public func merge<B: Publisher, C: Publisher>(
    with b: B, _ c: C
  ) -> Publishers.Merge3<Self, B, C>
  where B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure {
    Publishers.Merge3(self, b, c)
  }

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

  /// Merges this publisher with 4 others; see ``merge(with:)``.
  @inlinable
  public func merge<B: Publisher, C: Publisher, D: Publisher, E: Publisher>(
    with b: B, _ c: C, _ d: D, _ e: E
  ) -> Publishers.Merge5<Self, B, C, D, E>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure
  {
    Publishers.Merge5(self, b, c, d, e)
  }

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

  /// Merges this publisher with 6 others; see ``merge(with:)``.
  @inlinable
  public func merge<
    B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >(
    with b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G
  ) -> Publishers.Merge7<Self, B, C, D, E, F, G>
  where
    B.Output == Output, B.Failure == Failure, C.Output == Output, C.Failure == Failure,
    D.Output == Output, D.Failure == Failure, E.Output == Output, E.Failure == Failure,
    F.Output == Output, F.Failure == Failure, G.Output == Output, G.Failure == Failure
  {
    Publishers.Merge7(self, b, c, d, e, f, g)
  }

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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 2)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
    }
  }

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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 3)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
    }
  }

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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 4)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
      d.receive(subscriber: merge.link(3))
    }
  }

  /// A publisher of the values of 5 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge5<A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher>:
    Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure
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

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 5)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
      d.receive(subscriber: merge.link(3))
      e.receive(subscriber: merge.link(4))
    }
  }

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

    @inlinable @inline(__always)
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

  /// A publisher of the values of 7 upstreams, interleaved; see ``Publisher/merge(with:)``.
  public struct Merge7<
    A: Publisher, B: Publisher, C: Publisher, D: Publisher, E: Publisher, F: Publisher, G: Publisher
  >: Publisher
  where
    B.Output == A.Output, B.Failure == A.Failure, C.Output == A.Output, C.Failure == A.Failure,
    D.Output == A.Output, D.Failure == A.Failure, E.Output == A.Output, E.Failure == A.Failure,
    F.Output == A.Output, F.Failure == A.Failure, G.Output == A.Output, G.Failure == A.Failure
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

    /// The merge of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C, _ d: D, _ e: E, _ f: F, _ g: G) {
      self.a = a
      self.b = b
      self.c = c
      self.d = d
      self.e = e
      self.f = f
      self.g = g
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let merge = MergeSubscription.started(for: subscriber, upstreams: 7)
      a.receive(subscriber: merge.link(0))
      b.receive(subscriber: merge.link(1))
      c.receive(subscriber: merge.link(2))
      d.receive(subscriber: merge.link(3))
      e.receive(subscriber: merge.link(4))
      f.receive(subscriber: merge.link(5))
      g.receive(subscriber: merge.link(6))
    }
  }

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

    @inlinable @inline(__always)
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
