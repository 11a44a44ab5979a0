extension Publisher {
  /// Combines this publisher with `publisher1`: once each has published, every new value from
  /// either publishes a tuple of the latest value of each.
  ///
  /// Semantics (as Combine's): nothing is published until every upstream has published once;
  /// the combination finishes when every upstream has finished and fails as soon as one fails
  /// (cancelling the others). With finite demand each upstream is asked for one value at a time.
  ///
  /// ```swift
  /// username.combineLatest(password) { !$0.isEmpty && $1.count >= 8 }
  /// ```
  @inlinable
  public func combineLatest<P: Publisher>(
    _ publisher1: P
  ) -> Publishers.CombineLatest<Self, P>
  where P.Failure == Failure {
    Publishers.CombineLatest(self, publisher1)
  }

  /// ``combineLatest(_:)`` with 1 other publisher, each output made by `transform`.
  @inlinable
  public func combineLatest<P: Publisher, T>(
    _ publisher1: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest<Self, P>, T>
  where P.Failure == Failure {
    Publishers.CombineLatest(self, publisher1).map(transform)
  }

  /// ``combineLatest(_:)`` with 2 other publishers.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher>(
    _ publisher1: P, _ publisher2: Q
  ) -> Publishers.CombineLatest3<Self, P, Q>
  where P.Failure == Failure, Q.Failure == Failure {
    Publishers.CombineLatest3(self, publisher1, publisher2)
  }

  /// ``combineLatest(_:)`` with 2 other publishers, each output made by `transform`.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest3<Self, P, Q>, T>
  where P.Failure == Failure, Q.Failure == Failure {
    Publishers.CombineLatest3(self, publisher1, publisher2).map(transform)
  }

  /// ``combineLatest(_:)`` with 3 other publishers.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R
  ) -> Publishers.CombineLatest4<Self, P, Q, R>
  where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
    Publishers.CombineLatest4(self, publisher1, publisher2, publisher3)
  }

  /// ``combineLatest(_:)`` with 3 other publishers, each output made by `transform`.
  @inlinable
  public func combineLatest<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R,
    _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.CombineLatest4<Self, P, Q, R>, T>
  where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
    Publishers.CombineLatest4(self, publisher1, publisher2, publisher3).map(transform)
  }

}

extension Publishers {
  /// The latest values of 2 upstreams; see ``Publisher/combineLatest(_:)``.
  public struct CombineLatest<A: Publisher, B: Publisher>: Publisher
  where B.Failure == A.Failure {
    public typealias Output = (A.Output, B.Output)
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B

    /// The combineLatest of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = CombineLatestSubscription(downstream: subscriber, count: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      subscription.start()
      a.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, A.Output>(owner: subscription, index: 0))
      b.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, B.Output>(owner: subscription, index: 1))
    }
  }

  /// The latest values of 3 upstreams; see ``Publisher/combineLatest(_:)``.
  public struct CombineLatest3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where B.Failure == A.Failure, C.Failure == A.Failure {
    public typealias Output = (A.Output, B.Output, C.Output)
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C

    /// The combineLatest of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = CombineLatestSubscription(downstream: subscriber, count: 3) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      subscription.start()
      a.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, A.Output>(owner: subscription, index: 0))
      b.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, B.Output>(owner: subscription, index: 1))
      c.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, C.Output>(owner: subscription, index: 2))
    }
  }

  /// The latest values of 4 upstreams; see ``Publisher/combineLatest(_:)``.
  public struct CombineLatest4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
  where B.Failure == A.Failure, C.Failure == A.Failure, D.Failure == A.Failure {
    public typealias Output = (A.Output, B.Output, C.Output, D.Output)
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C
    /// Upstream 4.
    public let d: D

    /// The combineLatest of the given publishers.
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
      let subscription = CombineLatestSubscription(downstream: subscriber, count: 4) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
      }
      subscription.start()
      a.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, A.Output>(owner: subscription, index: 0))
      b.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, B.Output>(owner: subscription, index: 1))
      c.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, C.Output>(owner: subscription, index: 2))
      d.receive(
        subscriber:
          ErasedUpstreamLink<CombineLatestSubscription<S>, D.Output>(owner: subscription, index: 3))
    }
  }
}

extension Collection where Element: Publisher {
  /// Combines the latest values of every publisher of the collection into an array, in
  /// collection order; same semantics as ``Publisher/combineLatest(_:)``. An empty collection
  /// finishes at once.
  ///
  /// ```swift
  /// [a, b, c].combineLatest().sink { print($0) }   // [latestA, latestB, latestC]
  /// ```
  @inlinable
  public func combineLatest() -> Publishers.CombineLatestCollection<Self> {
    Publishers.CombineLatestCollection(self)
  }
}

extension Publishers {
  /// The latest values of a collection of publishers, as an array; see
  /// ``Swift/Collection/combineLatest()``.
  public struct CombineLatestCollection<Upstreams: Collection>: Publisher
  where Upstreams.Element: Publisher {
    public typealias Output = [Upstreams.Element.Output]
    public typealias Failure = Upstreams.Element.Failure

    /// The upstream publishers.
    public let publishers: Upstreams

    /// The combination of `publishers`.
    @inlinable
    public init(_ publishers: Upstreams) {
      self.publishers = publishers
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let subscription = CombineLatestSubscription(
        downstream: subscriber, count: publishers.count
      ) { $0.map { $0 as! Upstreams.Element.Output } }
      subscription.start()
      for (index, publisher) in publishers.enumerated() {
        publisher.receive(
          subscriber:
            ErasedUpstreamLink<CombineLatestSubscription<S>, Upstreams.Element.Output>(
              owner: subscription, index: index))
      }
    }
  }
}
