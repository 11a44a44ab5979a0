extension Publisher {
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
}

extension Publishers {
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
      let combination = CombineLatestSubscription.started(for: subscriber, upstreams: 3) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      combination.attach(a, id: 0)
      combination.attach(b, id: 1)
      combination.attach(c, id: 2)
    }
  }
}
