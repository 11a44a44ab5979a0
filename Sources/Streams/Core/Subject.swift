/// A publisher you can push values into with `send(_:)`.
///
/// Subjects are shared across threads: `send` may be called from any thread.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
  /// Delivers `value` to subscribers that have demand.
  func send(_ value: Output)

  /// Completes every subscriber; later sends are ignored.
  func send(completion: Subscribers.Completion<Failure>)

  /// Gives the subject an upstream subscription (when it is used as a subscriber) and requests
  /// unlimited demand from it.
  func send(subscription: any Subscription)
}

extension Subject where Output == Void {
  /// Sends a `Void` value.
  public func send() {
    send(())
  }
}

extension Publisher {
  /// Forwards this publisher's values and completion to `subject`; cancel the result to stop.
  public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable
  where S.Output == Output, S.Failure == Failure {
    let forwarder = SubjectForwarder(subject: subject)
    receive(subscriber: forwarder)
    return AnyCancellable(forwarder)
  }
}

/// The subscriber behind `subscribe(_ subject:)`.
private final class SubjectForwarder<Downstream: Subject>: Subscriber, Cancellable {
  typealias Input = Downstream.Output
  typealias Failure = Downstream.Failure

  private let lock = StreamsLock()
  // Protected by `lock`: the subject until completion or cancel, and the upstream subscription.
  private var subject: Downstream?
  private var upstream: (any Subscription)?
  private var isCancelled = false

  init(subject: Downstream) {
    self.subject = subject
  }

  func receive(subscription: any Subscription) {
    lock.lock()
    guard !isCancelled, upstream == nil, let subject else {
      lock.unlock()
      subscription.cancel()
      return
    }
    upstream = subscription
    lock.unlock()
    subject.send(subscription: subscription)
  }

  func receive(_ input: Input) -> Subscribers.Demand {
    lock.lock()
    let subject = self.subject
    lock.unlock()
    subject?.send(input)
    return .none
  }

  func receive(completion: Subscribers.Completion<Failure>) {
    lock.lock()
    let subject = self.subject
    self.subject = nil
    upstream = nil
    lock.unlock()
    subject?.send(completion: completion)
  }

  func cancel() {
    lock.lock()
    isCancelled = true
    let upstream = self.upstream
    self.upstream = nil
    subject = nil
    lock.unlock()
    upstream?.cancel()
  }
}
