extension Publisher {
  /// Pairs the values of this publisher and `publisher1` in order: the n-th tuple holds the
  /// n-th value of each.
  ///
  /// Semantics (as Combine's): values wait for their partners; the zip finishes as soon as an
  /// upstream has finished and none of its values is left waiting (no tuple can come), cancelling
  /// the others, and fails as soon as one fails.
  ///
  /// ```swift
  /// requests.zip(responses).sink { request, response in … }
  /// ```
  @inlinable
  public func zip<P: Publisher>(
    _ publisher1: P
  ) -> Publishers.Zip<Self, P>
  where P.Failure == Failure {
    Publishers.Zip(self, publisher1)
  }

  /// ``zip(_:)`` with 1 other publisher, each output made by `transform`.
  @inlinable
  public func zip<P: Publisher, T>(
    _ publisher1: P, _ transform: @escaping (Output, P.Output) -> T
  ) -> Publishers.Map<Publishers.Zip<Self, P>, T>
  where P.Failure == Failure {
    Publishers.Zip(self, publisher1).map(transform)
  }
}

extension Publishers {
  /// The paired values of 2 upstreams; see ``Publisher/zip(_:)``.
  public struct Zip<A: Publisher, B: Publisher>: Publisher
  where B.Failure == A.Failure {
    public typealias Output = (A.Output, B.Output)
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B

    /// The zip of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B) {
      self.a = a
      self.b = b
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let zip = ZipSubscription.started(for: subscriber, upstreams: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      zip.attach(a, id: 0)
      zip.attach(b, id: 1)
    }
  }
}
