extension Publisher {
  /// Shares one subscription to this publisher and replays its last `count` values to each new
  /// subscriber.
  ///
  /// Semantics: like ``share()`` the upstream is subscribed on the first subscriber and cancelled
  /// when the last leaves (a later subscriber subscribes again, the replay buffer being kept).
  /// Each subscriber receives the buffered values, then every later value; nothing is dropped for
  /// a subscriber without demand — its values wait until it asks. After the upstream completed, a
  /// new subscriber receives the buffered values, then the completion. A `count` below 0 is
  /// treated as 0.
  ///
  /// ```swift
  /// let settings = store.settings().share(replay: 1)
  /// ```
  public func share(replay count: Int) -> Publishers.ShareReplay<Self> {
    Publishers.ShareReplay(upstream: self, count: count)
  }
}

extension Publishers {
  /// A shared publisher replaying its last values; see ``Publisher/share(replay:)``.
  ///
  /// Thread-safe.
  public final class ShareReplay<Upstream: Publisher>: Publisher, @unchecked Sendable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The shared publisher.
    public let upstream: Upstream
    /// How many of the last values are replayed.
    public let count: Int

    // `@unchecked Sendable`: immutable; `inner` is thread-safe by its own locks.
    private let inner: Autoconnect<Multicast<Upstream, ReplaySubject<Output, Failure>>>

    /// A shared `upstream` replaying its last `count` values.
    public init(upstream: Upstream, count: Int) {
      self.upstream = upstream
      self.count = Swift.max(count, 0)
      let capacity = self.count
      inner = Multicast(upstream: upstream) { ReplaySubject(capacity: capacity) }.autoconnect()
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      inner.receive(subscriber: subscriber)
    }
  }
}

/// A subject that keeps its last `capacity` values and gives them to each new subscriber.
///
/// Built on ``SubjectCore``; each subscriber has its own queue (a ``SubjectSubscription`` of the
/// replay kind), so values wait for its demand. Its upstreams are asked for values at once.
internal final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  // `@unchecked Sendable`: `core`'s lock guards `buffer`; `capacity` is immutable.
  private let capacity: Int
  private let core = SubjectCore<Output, Failure>(asksUpstreamsAtOnce: true)
  private var buffer: [Output] = []

  init(capacity: Int) {
    self.capacity = capacity
  }

  func send(_ value: Output) {
    let capacity = self.capacity
    guard
      let (conduits, _) = core.prepareSend({ _ in
        guard capacity > 0 else { return }
        if buffer.count == capacity { buffer.removeFirst() }
        buffer.append(value)
      })
    else { return }
    for conduit in conduits { conduit.offer(value, sequence: 0) }
  }

  func send(completion: Subscribers.Completion<Failure>) {
    core.complete(completion)
  }

  func send(subscription: any Subscription) {
    core.accept(upstream: subscription)
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.subscribe(subscriber, owner: self, kind: .replay) { buffer }
  }
}

extension ReplaySubject: SubjectConduitOwner {
  func currentValue() -> (value: Output, sequence: UInt64)? { nil }
}
