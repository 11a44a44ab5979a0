extension Publisher {
  /// Shares this publisher through the subject made by `createSubject`, once `connect()` is
  /// called.
  ///
  /// The subject is made on the first subscription or connection and then reused. Subscribers
  /// attach to the subject, each through a subscription named `Multicast` that passes their
  /// demand to the subject as it is, as Combine's does; `connect()` subscribes the subject to this
  /// publisher, and cancelling its result disconnects. Use
  /// ``Publishers/Multicast/autoconnect()`` to connect on the first subscriber.
  ///
  /// ```swift
  /// let shared = expensive.multicast { PassthroughSubject<Int, Never>() }
  /// shared.sink { print("a", $0) }.store(in: &cancellables)
  /// shared.sink { print("b", $0) }.store(in: &cancellables)
  /// shared.connect().store(in: &cancellables)
  /// ```
  public func multicast<S: Subject>(
    _ createSubject: @escaping () -> S
  ) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
    Publishers.Multicast(upstream: self, createSubject: createSubject)
  }

  /// Shares this publisher through `subject` once `connect()` is called; see
  /// ``multicast(_:)``.
  public func multicast<S: Subject>(
    subject: S
  ) -> Publishers.Multicast<Self, S> where S.Output == Output, S.Failure == Failure {
    Publishers.Multicast(upstream: self) { subject }
  }
}

extension Publishers {
  /// A connectable publisher sharing its upstream through a subject.
  ///
  /// See ``Publisher/multicast(_:)`` for the semantics. Thread-safe.
  public final class Multicast<Upstream: Publisher, SubjectType: Subject>: ConnectablePublisher,
    @unchecked Sendable
  where SubjectType.Output == Upstream.Output, SubjectType.Failure == Upstream.Failure {
    public typealias Output = Upstream.Output
    public typealias Failure = Upstream.Failure

    /// The shared publisher.
    public let upstream: Upstream
    /// Makes the subject, once.
    public let createSubject: () -> SubjectType

    private let lock = StreamsLock()
    // Protected by `lock`: the subject once made.
    private var madeSubject: SubjectType?

    /// A multicast of `upstream` through the subject made by `createSubject`.
    public init(upstream: Upstream, createSubject: @escaping () -> SubjectType) {
      self.upstream = upstream
      self.createSubject = createSubject
    }

    /// The subject, made on first use (outside the lock; a race keeps the first one stored).
    private var subject: SubjectType {
      if let existing = lock.withLock({ madeSubject }) { return existing }
      let made = createSubject()
      return lock.withLock {
        if let existing = madeSubject { return existing }
        madeSubject = made
        return made
      }
    }

    public func receive<S: Subscriber>(subscriber: S)
    where S.Input == Output, S.Failure == Failure {
      subject.subscribe(MulticastSubscription(downstream: subscriber))
    }

    /// Subscribes the subject to the upstream; cancel the result to disconnect.
    public func connect() -> any Cancellable {
      upstream.subscribe(subject)
    }
  }
}

/// The subscriber `Multicast` attaches to its subject for each of its subscribers, and the
/// subscription it gives them: events and demand pass through unchanged.
internal final class MulticastSubscription<Downstream: Subscriber>: Subscriber, Subscription,
  OperatorNamed
{
  var operatorName: String { "Multicast" }

  typealias Input = Downstream.Input
  typealias Failure = Downstream.Failure

  private let downstream: Downstream
  private let lock = StreamsLock()
  // Protected by `lock`: the subject's subscription, until completion or cancel.
  private var upstream = UpstreamState()

  init(downstream: Downstream) {
    self.downstream = downstream
  }

  func receive(subscription: any Subscription) {
    guard lock.withLock({ upstream.attach(subscription) }) != nil else {
      subscription.cancel()
      return
    }
    downstream.receive(subscription: self)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    guard !lock.withLock({ upstream.isFinished }) else { return .none }
    return downstream.receive(input)
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    let wasLive = lock.withLock {
      defer { _ = upstream.finish() }
      return !upstream.isFinished
    }
    if wasLive { downstream.receive(completion: completion) }
  }

  func request(_ demand: Subscribers.Demand) {
    lock.withLock { upstream.subscription }?.request(demand)
  }

  func cancel() {
    lock.withLock { upstream.finish() }?.cancel()
  }
}
