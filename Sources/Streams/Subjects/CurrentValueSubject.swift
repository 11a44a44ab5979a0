/// A subject that holds a current value and gives it to each new subscriber.
///
/// A new subscriber receives the current value as soon as it requests demand (inside that
/// `request`), then every later value it has demand for. `value` can be read and written from any thread; writing it sends.
/// Subscribers are served in subscription order; calls into one subscriber never overlap.
///
/// ```swift
/// let count = CurrentValueSubject<Int, Never>(0)
/// let cancellable = count.sink { print($0) }   // prints 0
/// count.value += 1                              // prints 1
/// ```
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
  @usableFromInline let core = SubjectCore<Output, Failure>()
  // Protected by `core`'s lock: the current value and the sequence number of the send that set it.
  // They are `@exclusivity(unchecked)`: the lock already makes each access exclusive, and the
  // runtime check would cost two calls per access in the code inlined into client modules.
  @exclusivity(unchecked) @usableFromInline var currentSequence: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var current: Output

  /// A subject holding `value`.
  @inlinable
  public init(_ value: Output) {
    current = value
  }

  /// The current value; setting it sends the new value to subscribers.
  ///
  /// After the subject completed, setting it still changes the current value (as with Combine),
  /// though nothing is sent.
  @inlinable
  public var value: Output {
    get { core.withLock { current } }
    set {
      guard
        let (conduits, sequence) = core.prepareSend({ sequence in
          current = newValue
          currentSequence = sequence
        })
      else {
        core.withLock { current = newValue }
        return
      }
      core.offer(newValue, sequence: sequence, to: conduits)
    }
  }

  /// Makes `value` the current value and delivers it to every subscriber with demand, in
  /// subscription order. After completion, `send` does nothing (setting ``value`` still changes
  /// the current value).
  @inlinable
  public func send(_ value: Output) {
    guard
      let (conduits, sequence) = core.prepareSend({ sequence in
        current = value
        currentSequence = sequence
      })
    else { return }
    core.offer(value, sequence: sequence, to: conduits)
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
    core.subscribe(subscriber, owner: self, kind: .currentValue)
  }
}

extension CurrentValueSubject: SubjectConduitOwner {
  @usableFromInline
  func currentValue() -> (value: Output, sequence: UInt64)? {
    core.withLock { (current, currentSequence) }
  }
}
