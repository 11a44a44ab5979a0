extension Publisher {
  /// Delivers `elements` after the upstream finishes.
  ///
  /// ```swift
  /// let cancellable = [1, 2].publisher.append(3, 4).sink { print($0) }  // 1, 2, 3, 4
  /// ```
  @inlinable
  public func append(
    _ elements: Output...
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Delivers the elements of `elements` after the upstream finishes.
  @inlinable
  public func append<S: Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>> where S.Element == Output {
    append(Publishers.Sequence(sequence: elements))
  }

  /// Delivers `publisher`'s values after the upstream finishes; it is subscribed to only then.
  @inlinable
  public func append<P: Publisher>(
    _ publisher: P
  ) -> Publishers.Concatenate<Self, P> where P.Output == Output, P.Failure == Failure {
    Publishers.Concatenate(prefix: self, suffix: publisher)
  }

  /// Delivers `elements` before the upstream's values.
  ///
  /// ```swift
  /// let cancellable = [3].publisher.prepend(1, 2).sink { print($0) }  // 1, 2, 3
  /// ```
  @inlinable
  public func prepend(
    _ elements: Output...
  ) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Delivers the elements of `elements` before the upstream's values.
  @inlinable
  public func prepend<S: Sequence>(
    _ elements: S
  ) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self> where S.Element == Output {
    prepend(Publishers.Sequence(sequence: elements))
  }

  /// Delivers `publisher`'s values before the upstream's; the upstream is subscribed to only
  /// after `publisher` finishes.
  @inlinable
  public func prepend<P: Publisher>(
    _ publisher: P
  ) -> Publishers.Concatenate<P, Self> where P.Output == Output, P.Failure == Failure {
    Publishers.Concatenate(prefix: publisher, suffix: self)
  }
}

extension Publishers {
  /// A publisher that delivers all values of one publisher, then all values of another.
  ///
  /// The suffix is subscribed to when the prefix finishes and asked for the demand not yet
  /// served; a failure of the prefix is forwarded and the suffix never subscribed to.
  public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
  where Prefix.Output == Suffix.Output, Prefix.Failure == Suffix.Failure {
    public typealias Output = Suffix.Output
    public typealias Failure = Suffix.Failure

    /// The publisher delivered first.
    public let prefix: Prefix
    /// The publisher delivered after the prefix finishes.
    public let suffix: Suffix

    /// Creates a `Concatenate` publisher from its upstream and parameters.
    @inlinable
    public init(prefix: Prefix, suffix: Suffix) {
      self.prefix = prefix
      self.suffix = suffix
    }

    @inlinable @inline(__always)
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let relay = SequentialUpstreamSubscription(downstream: subscriber, name: "Concatenate")
      let suffix = self.suffix
      relay.start()
      prefix.receive(
        subscriber:
          SequentialUpstreamInput<Output, Failure, S>(relay) { completion in
            switch completion {
            case .finished:
              guard relay.isActive else { return }
              suffix.receive(
                subscriber:
                  SequentialUpstreamInput<Output, Failure, S>(relay) { relay.complete($0) })
            case .failure:
              relay.complete(completion)
            }
          })
    }
  }
}
