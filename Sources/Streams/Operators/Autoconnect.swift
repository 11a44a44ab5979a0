extension ConnectablePublisher {
  /// Connects when the first subscriber arrives and disconnects when the last one leaves.
  ///
  /// Semantics: subscribers are counted; a subscriber that arrives while no connection is made
  /// triggers `connect()` right after it is attached; when the last one cancels, the connections
  /// are cancelled, and a later subscriber connects again. As with Combine, only a cancel counts
  /// as leaving: a subscriber that received its completion still counts, so once the upstream
  /// completed, later subscribers do not connect again (through `share()` they receive the
  /// completion at once). Also as with Combine, the connection counts as made only once
  /// `connect()` returned: a subscriber that subscribes during `connect()` (for example from the
  /// completion of a publisher that finishes at once) causes a second connection.
  ///
  /// ```swift
  /// let shared = values.makeConnectable().autoconnect()
  /// ```
  public func autoconnect() -> Publishers.Autoconnect<Self> {
    Publishers.Autoconnect(upstream: self)
  }
}

extension Publishers {
  /// A publisher that connects its connectable upstream while it has subscribers.
  ///
  /// See ``ConnectablePublisher/autoconnect()`` for the semantics. Thread-safe.
  public final class Autoconnect<Upstream: ConnectablePublisher>: Publisher, @unchecked Sendable {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The connectable publisher.
    public let upstream: Upstream

    // `@unchecked Sendable`: immutable; `refCount` is thread-safe by its own lock.
    private let refCount: RefCountedConnection

    /// Connects `upstream` while it has subscribers.
    public init(upstream: Upstream) {
      self.upstream = upstream
      let upstream = upstream
      refCount = RefCountedConnection { upstream.connect() }
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      refCount.attach(subscriber, to: upstream)
    }
  }
}

/// Counts subscribers (until they cancel) and keeps the connections open while there is at
/// least one.
internal final class RefCountedConnection {
  private let connect: () -> any Cancellable
  private let lock = StreamsLock()
  // Protected by `lock`: the number of subscribers and the connections made since the count was
  // last zero (usually one; more when subscribers arrived while `connect()` ran).
  private var subscribers = 0
  private var connections: [any Cancellable] = []

  init(connect: @escaping () -> any Cancellable) {
    self.connect = connect
  }

  /// Attaches `subscriber` to `publisher`, connecting if no connection was made yet.
  func attach<P: Publisher, S: Subscriber>(_ subscriber: S, to publisher: P)
  where S.Input == P.Output, S.Failure == P.Failure {
    let connects = lock.withLock {
      subscribers += 1
      return connections.isEmpty
    }
    publisher.receive(subscriber: RefCountedSubscriber(downstream: subscriber, owner: self))
    guard connects else { return }
    let made = connect()
    let stale = lock.withLock { () -> (any Cancellable)? in
      guard subscribers > 0 else { return made }
      connections.append(made)
      return nil
    }
    stale?.cancel()
  }

  /// One subscriber left; disconnects after the last.
  func detach() {
    let closing = lock.withLock { () -> [any Cancellable] in
      subscribers -= 1
      guard subscribers == 0 else { return [] }
      defer { connections = [] }
      return connections
    }
    for connection in closing {
      connection.cancel()
    }
  }
}

/// Wraps a subscriber of an autoconnected publisher to notice when it leaves.
internal final class RefCountedSubscriber<Downstream: Subscriber>: Subscriber, Subscription,
  OperatorNamed
{
  @usableFromInline
  var operatorName: String { "Autoconnect" }

  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let owner: RefCountedConnection
  private let lock = StreamsLock()
  // Protected by `lock`: the upstream subscription and whether this subscriber has left.
  private var upstream: (any Subscription)?
  private var hasLeft = false

  init(downstream: Downstream, owner: RefCountedConnection) {
    self.downstream = downstream
    self.owner = owner
  }

  func receive(subscription: any Subscription) {
    lock.withLock { upstream = subscription }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    downstream.receive(completion: completion)
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { upstream }?.request(demand)
  }

  func cancel() {
    let upstream = lock.withLock { self.upstream }
    upstream?.cancel()
    leave()
  }

  private func leave() {
    let first = lock.withLock {
      defer {
        hasLeft = true
        upstream = nil
      }
      return !hasLeft
    }
    if first { owner.detach() }
  }
}
