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

    // Immutable; thread-safe by its own locks.
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
/// Each subscriber has its own queue (a ``RelaySubscription``), so values wait for its demand.
internal final class ReplaySubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  private let capacity: Int
  private let lock = StreamsLock()
  // Protected by `lock`: the replay buffer, the subscribers in subscription order, the
  // completion once sent and the upstream subscriptions.
  private var buffer: [Output] = []
  private var conduits: [ReplayConduitBase<Output, Failure>] = []
  private var completion: Subscribers.Completion<Failure>?
  private var upstreams: [any Subscription] = []

  init(capacity: Int) {
    self.capacity = capacity
  }

  func send(_ value: Output) {
    lock.lock()
    guard completion == nil else {
      lock.unlock()
      return
    }
    if capacity > 0 {
      if buffer.count == capacity { buffer.removeFirst() }
      buffer.append(value)
    }
    let targets = conduits
    lock.unlock()
    for conduit in targets { conduit.offer(value) }
  }

  func send(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    guard self.completion == nil else {
      lock.unlock()
      return
    }
    self.completion = completion
    let targets = conduits
    let released = upstreams
    conduits = []
    upstreams = []
    lock.unlock()
    for conduit in targets { conduit.finish(completion) }
    withExtendedLifetime(released) {}
  }

  func send(subscription: any Subscription) {
    lock.lock()
    let accepted = completion == nil
    if accepted { upstreams.append(subscription) }
    lock.unlock()
    if accepted { subscription.request(.unlimited) } else { subscription.cancel() }
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let conduit = ReplayConduit(downstream: subscriber, owner: self)
    lock.lock()
    conduit.prefill(buffer, completion: completion)
    if completion == nil { conduits.append(conduit) }
    lock.unlock()
    conduit.start()
  }

  func detach(_ conduit: ReplayConduitBase<Output, Failure>) {
    lock.lock()
    let index = conduits.firstIndex { $0 === conduit }
    let removed = index.map { conduits.remove(at: $0) }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }
}

/// A replay subject's link to one subscriber, seen without the subscriber's type.
internal class ReplayConduitBase<Output, Failure: Error>: @unchecked Sendable {
  func offer(_ value: Output) {}
  func finish(_ completion: Subscribers.Completion<Failure>) {}
}

internal final class ReplayConduit<Downstream: Subscriber>: ReplayConduitBase<
  Downstream.Input, Downstream.Failure
>, @unchecked Sendable
{
  private let relay: ReplayRelay<Downstream>

  init(downstream: Downstream, owner: ReplaySubject<Downstream.Input, Downstream.Failure>) {
    relay = ReplayRelay(downstream: downstream)
    super.init()
    relay.onCancel = { [weak self, weak owner] in
      guard let self, let owner else { return }
      owner.detach(self)
    }
  }

  /// Queues the replayed values (and completion) before the subscriber is attached. Called with
  /// the subject's lock held; takes only the relay's lock.
  func prefill(
    _ values: [Downstream.Input], completion: Subscribers.Completion<Downstream.Failure>?
  ) {
    relay.prefill(values, completion: completion)
  }

  func start() { relay.start() }

  override func offer(_ value: Downstream.Input) { relay.offer(value) }

  override func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    relay.finishWith(completion)
  }
}

/// The subscription a replay subject gives each subscriber: a queue drained as demand allows.
internal final class ReplayRelay<Downstream: Subscriber>: RelaySubscription<Downstream>,
  @unchecked Sendable
{
  @usableFromInline
  override var operatorName: String { "ShareReplay" }

  // Set once before `start()`; read under the inherited `lock`.
  var onCancel: (() -> Void)?

  override init(downstream: Downstream) {
    super.init(downstream: downstream)
    outlet.isDelivering = true
  }

  func prefill(
    _ values: [Downstream.Input], completion: Subscribers.Completion<Downstream.Failure>?
  ) {
    lock.lock()
    for value in values { outlet.push(value) }
    if let completion { outlet.finish(completion) }
    lock.unlock()
  }

  func offer(_ value: Downstream.Input) {
    lock.lock()
    emitAndUnlock(value)
  }

  func finishWith(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    outlet.finish(completion)
    onCancel = nil
    lock.unlock()
    drain()
  }

  override func didCancel(_ effects: inout RelayEffects) {
    if let onCancel { effects.run(onCancel) }
    onCancel = nil
  }
}
