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
      let combination = CombineLatestSubscription.started(for: subscriber, upstreams: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      combination.attach(a, id: 0)
      combination.attach(b, id: 1)
    }
  }
}
