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

  /// ``zip(_:)`` with 2 other publishers.
  @inlinable
  public func zip<P: Publisher, Q: Publisher>(
    _ publisher1: P, _ publisher2: Q
  ) -> Publishers.Zip3<Self, P, Q>
  where P.Failure == Failure, Q.Failure == Failure {
    Publishers.Zip3(self, publisher1, publisher2)
  }

  /// ``zip(_:)`` with 2 other publishers, each output made by `transform`.
  @inlinable
  public func zip<P: Publisher, Q: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ transform: @escaping (Output, P.Output, Q.Output) -> T
  ) -> Publishers.Map<Publishers.Zip3<Self, P, Q>, T>
  where P.Failure == Failure, Q.Failure == Failure {
    Publishers.Zip3(self, publisher1, publisher2).map(transform)
  }

  /// ``zip(_:)`` with 3 other publishers.
  @inlinable
  public func zip<P: Publisher, Q: Publisher, R: Publisher>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R
  ) -> Publishers.Zip4<Self, P, Q, R>
  where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
    Publishers.Zip4(self, publisher1, publisher2, publisher3)
  }

  /// ``zip(_:)`` with 3 other publishers, each output made by `transform`.
  @inlinable
  public func zip<P: Publisher, Q: Publisher, R: Publisher, T>(
    _ publisher1: P, _ publisher2: Q, _ publisher3: R,
    _ transform: @escaping (Output, P.Output, Q.Output, R.Output) -> T
  ) -> Publishers.Map<Publishers.Zip4<Self, P, Q, R>, T>
  where P.Failure == Failure, Q.Failure == Failure, R.Failure == Failure {
    Publishers.Zip4(self, publisher1, publisher2, publisher3).map(transform)
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

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let zip = ZipSubscription.started(for: subscriber, upstreams: 2) {
        ($0[0] as! A.Output, $0[1] as! B.Output)
      }
      zip.attach(a, id: 0)
      zip.attach(b, id: 1)
    }
  }

  /// The paired values of 3 upstreams; see ``Publisher/zip(_:)``.
  public struct Zip3<A: Publisher, B: Publisher, C: Publisher>: Publisher
  where B.Failure == A.Failure, C.Failure == A.Failure {
    public typealias Output = (A.Output, B.Output, C.Output)
    public typealias Failure = A.Failure

    /// Upstream 1.
    public let a: A
    /// Upstream 2.
    public let b: B
    /// Upstream 3.
    public let c: C

    /// The zip of the given publishers.
    @inlinable
    public init(_ a: A, _ b: B, _ c: C) {
      self.a = a
      self.b = b
      self.c = c
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let zip = ZipSubscription.started(for: subscriber, upstreams: 3) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output)
      }
      zip.attach(a, id: 0)
      zip.attach(b, id: 1)
      zip.attach(c, id: 2)
    }
  }

  /// The paired values of 4 upstreams; see ``Publisher/zip(_:)``.
  public struct Zip4<A: Publisher, B: Publisher, C: Publisher, D: Publisher>: Publisher
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

    /// The zip of the given publishers.
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
      let zip = ZipSubscription.started(for: subscriber, upstreams: 4) {
        ($0[0] as! A.Output, $0[1] as! B.Output, $0[2] as! C.Output, $0[3] as! D.Output)
      }
      zip.attach(a, id: 0)
      zip.attach(b, id: 1)
      zip.attach(c, id: 2)
      zip.attach(d, id: 3)
    }
  }
}
