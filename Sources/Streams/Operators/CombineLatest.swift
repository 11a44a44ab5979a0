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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combination = CombineLatestSubscription.started(for: subscriber, upstreams: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      combination.attach(a, id: 0)
      combination.attach(b, id: 1)
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combination = CombineLatestSubscription.started(for: subscriber, upstreams: 3) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      combination.attach(a, id: 0)
      combination.attach(b, id: 1)
      combination.attach(c, id: 2)
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let combination = CombineLatestSubscription.started(for: subscriber, upstreams: 4) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
      }
      combination.attach(a, id: 0)
      combination.attach(b, id: 1)
      combination.attach(c, id: 2)
      combination.attach(d, id: 3)
    }
  }
}
