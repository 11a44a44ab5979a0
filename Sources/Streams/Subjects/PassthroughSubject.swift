/// A subject that broadcasts values to its current subscribers; it keeps no value.
///
/// `send(_:)` may be called from any thread. Each subscriber gets the value only if it has
/// outstanding demand (otherwise the value is dropped for it), subscribers are served in
/// subscription order, and calls into one subscriber never overlap. After a completion, new
/// subscribers receive that completion at once.
///
/// ```swift
/// let subject = PassthroughSubject<Int, Never>()
/// let cancellable = subject.sink { print($0) }
/// subject.send(1)   // prints 1
/// ```
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  // `core` is itself lock-protected; this class has no other mutable state.
  @usableFromInline let core = SubjectCore<Output, Failure>()

  /// A subject without subscribers.
  @inlinable
  public init() {}

  /// Delivers `value` to every subscriber with demand, in subscription order; subscribers
  /// without demand miss it.
  @inlinable
  public func send(_ value: Output) {
    guard let (conduits, _) = core.prepareSend({ _ in }) else { return }
    core.offer(value, sequence: 0, to: conduits)
  }

  /// Completes every subscriber, once; later sends and completions are ignored.
  @inlinable
  public func send(completion: Subscribers.Completion<Failure>) {
    core.complete(completion)
  }

  /// Keeps an upstream subscription (when the subject subscribes to a publisher) and requests
  /// unlimited values from it once a subscriber has asked for values, as Combine does. The
  /// subject cancels the upstream subscriptions it holds when it goes away.
  @inlinable
  public func send(subscription: any Subscription) {
    core.accept(upstream: subscription)
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    core.subscribe(subscriber, owner: self, kind: .passthrough)
  }
}

extension PassthroughSubject: SubjectConduitOwner {
  @usableFromInline
  func currentValue() -> (value: Output, sequence: UInt64)? { nil }
}
