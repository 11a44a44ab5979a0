extension Publisher {
  /// Replaces every value with the value at `keyPath`.
  ///
  /// Stateless and lock-free, like `map` with a closure.
  ///
  /// ```swift
  /// let cancellable = users.publisher.map(\.name).sink { print($0) }
  /// ```
  @inlinable
  public func map<T>(_ keyPath: KeyPath<Output, T>) -> Publishers.MapKeyPath<Self, T> {
    Publishers.MapKeyPath(upstream: self, keyPath: keyPath)
  }

  /// Replaces every value with the pair of values at `keyPath0` and `keyPath1`.
  @inlinable
  public func map<T0, T1>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>
  ) -> Publishers.MapKeyPath2<Self, T0, T1> {
    Publishers.MapKeyPath2(upstream: self, keyPath0: keyPath0, keyPath1: keyPath1)
  }

  /// Replaces every value with the triple of values at `keyPath0`, `keyPath1` and `keyPath2`.
  @inlinable
  public func map<T0, T1, T2>(
    _ keyPath0: KeyPath<Output, T0>, _ keyPath1: KeyPath<Output, T1>,
    _ keyPath2: KeyPath<Output, T2>
  ) -> Publishers.MapKeyPath3<Self, T0, T1, T2> {
    Publishers.MapKeyPath3(
      upstream: self, keyPath0: keyPath0, keyPath1: keyPath1, keyPath2: keyPath2)
  }
}

extension Publishers {
  /// A publisher that replaces every value of its upstream with the value at a key path.
  public struct MapKeyPath<Upstream: Publisher, Output>: Publisher {
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are read.
    public let upstream: Upstream
    /// The key path of the delivered value.
    public let keyPath: KeyPath<Upstream.Output, Output>

    /// Creates a `MapKeyPath` publisher from its upstream and key path.
    @inlinable
    public init(upstream: Upstream, keyPath: KeyPath<Upstream.Output, Output>) {
      self.upstream = upstream
      self.keyPath = keyPath
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let keyPath = self.keyPath
      Publishers.Map(upstream: upstream) { $0[keyPath: keyPath] }.receive(subscriber: subscriber)
    }
  }

  /// A publisher that replaces every value of its upstream with the values at two key paths.
  public struct MapKeyPath2<Upstream: Publisher, Output0, Output1>: Publisher {
    public typealias Output = (Output0, Output1)
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are read.
    public let upstream: Upstream
    /// The key path of the first delivered value.
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    /// The key path of the second delivered value.
    public let keyPath1: KeyPath<Upstream.Output, Output1>

    /// Creates a `MapKeyPath2` publisher from its upstream and key paths.
    @inlinable
    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let keyPath0 = self.keyPath0
      let keyPath1 = self.keyPath1
      Publishers.Map(upstream: upstream) { ($0[keyPath: keyPath0], $0[keyPath: keyPath1]) }
        .receive(subscriber: subscriber)
    }
  }

  /// A publisher that replaces every value of its upstream with the values at three key paths.
  public struct MapKeyPath3<Upstream: Publisher, Output0, Output1, Output2>: Publisher {
    public typealias Output = (Output0, Output1, Output2)
    public typealias Failure = Upstream.Failure

    /// The publisher whose values are read.
    public let upstream: Upstream
    /// The key path of the first delivered value.
    public let keyPath0: KeyPath<Upstream.Output, Output0>
    /// The key path of the second delivered value.
    public let keyPath1: KeyPath<Upstream.Output, Output1>
    /// The key path of the third delivered value.
    public let keyPath2: KeyPath<Upstream.Output, Output2>

    /// Creates a `MapKeyPath3` publisher from its upstream and key paths.
    @inlinable
    public init(
      upstream: Upstream, keyPath0: KeyPath<Upstream.Output, Output0>,
      keyPath1: KeyPath<Upstream.Output, Output1>, keyPath2: KeyPath<Upstream.Output, Output2>
    ) {
      self.upstream = upstream
      self.keyPath0 = keyPath0
      self.keyPath1 = keyPath1
      self.keyPath2 = keyPath2
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let keyPath0 = self.keyPath0
      let keyPath1 = self.keyPath1
      let keyPath2 = self.keyPath2
      Publishers.Map(upstream: upstream) {
        ($0[keyPath: keyPath0], $0[keyPath: keyPath1], $0[keyPath: keyPath2])
      }.receive(subscriber: subscriber)
    }
  }
}
