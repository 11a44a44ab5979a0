extension Publisher {
  /// Shares one subscription to this publisher among all subscribers.
  ///
  /// Semantics: the upstream is subscribed when the first subscriber arrives and cancelled when
  /// the last one cancels; a later subscriber subscribes again. Values go to the subscribers
  /// present (a subscriber without demand misses them, as with a `PassthroughSubject`); after the
  /// upstream completed, new subscribers receive that completion at once, without a new
  /// subscription to the upstream (a completed subscriber still counts, as with Combine).
  ///
  /// ```swift
  /// let shared = api.fetch().share()
  /// shared.sink { show($0) }.store(in: &cancellables)
  /// shared.sink { cache($0) }.store(in: &cancellables)
  /// ```
  public func share() -> Publishers.Share<Self> {
    Publishers.Share(upstream: self)
  }
}

extension Publishers {
  /// A publisher sharing one subscription to its upstream; see ``Publisher/share()``.
  ///
  /// A class: copies of the reference share the subscription. Thread-safe.
  public final class Share<Upstream: Publisher>: Publisher, Equatable, @unchecked Sendable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The shared publisher.
    public let upstream: Upstream

    // `@unchecked Sendable`: immutable; `inner` is thread-safe by its own locks.
    private let inner: Autoconnect<Multicast<Upstream, PassthroughSubject<Output, Failure>>>

    /// A shared `upstream`.
    public init(upstream: Upstream) {
      self.upstream = upstream
      inner = Multicast(upstream: upstream) { PassthroughSubject() }.autoconnect()
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      inner.receive(subscriber: subscriber)
    }

    public static func == (lhs: Share, rhs: Share) -> Bool { lhs === rhs }
  }
}
