extension Publisher {
  /// Shares this publisher through the subject made by `createSubject`, once `connect()` is
  /// called.
  ///
  /// The subject is made on the first subscription or connection and then reused. Subscribers
  /// attach to the subject; `connect()` subscribes the subject to this publisher, and cancelling
  /// its result disconnects. Use ``Publishers/Multicast/autoconnect()`` to connect on the first
  /// subscriber.
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
      subject.subscribe(subscriber)
    }

    /// Subscribes the subject to the upstream; cancel the result to disconnect.
    public func connect() -> any Cancellable {
      upstream.subscribe(subject)
    }
  }
}
