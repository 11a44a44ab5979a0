extension Publisher {
  /// Subscribes to the upstream again, up to `retries` times, when it fails; the last failure is
  /// forwarded.
  ///
  /// Each new subscription is asked for the demand not yet served. Values delivered before a
  /// failure stay delivered. A negative count is treated as 0.
  ///
  /// ```swift
  /// let cancellable = fetch().retry(2).sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
  /// ```
  @inlinable
  public func retry(_ retries: Int) -> Publishers.Retry<Self> {
    Publishers.Retry(upstream: self, retries: Swift.max(0, retries))
  }
}

extension Publishers {
  /// A publisher that subscribes to its upstream again when it fails.
  public struct Retry<Upstream: Publisher>: Publisher {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The publisher subscribed to again on failure.
    public let upstream: Upstream
    /// How many times to subscribe again; nil retries without limit.
    public let retries: Int?

    /// Creates a `Retry` publisher from its upstream and parameters.
    @inlinable
    public init(upstream: Upstream, retries: Int?) {
      self.upstream = upstream
      self.retries = retries
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      let relay = SequentialUpstreamSubscription(downstream: subscriber)
      relay.start()
      Self.attempt(upstream, relay: relay, remaining: retries)
    }

    @inlinable
    static func attempt<S: Subscriber>(
      _ upstream: Upstream, relay: SequentialUpstreamSubscription<S>, remaining: Int?
    ) where S.Input == Output, S.Failure == Failure {
      guard relay.isActive else { return }
      upstream.receive(
        subscriber:
          SequentialUpstreamInput<Output, Failure, S>(relay) { completion in
            if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
              attempt(upstream, relay: relay, remaining: remaining.map { $0 - 1 })
            } else {
              relay.complete(completion)
            }
          })
    }
  }
}
