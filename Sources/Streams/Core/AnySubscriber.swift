/// A subscriber that hides the type of the subscriber it wraps, or is built from closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible {
  @usableFromInline internal let receiveSubscriptionBody: (any Subscription) -> Void
  @usableFromInline internal let receiveValueBody: (Input) -> Subscribers.Demand
  @usableFromInline internal let receiveCompletionBody: (Subscribers.Completion<Failure>) -> Void
  public let combineIdentifier: CombineIdentifier

  /// Wraps `subscriber`, keeping its identifier.
  @inlinable
  public init<S: Subscriber>(_ subscriber: S) where S.Input == Input, S.Failure == Failure {
    if let erased = subscriber as? AnySubscriber<Input, Failure> {
      self = erased
      return
    }
    combineIdentifier = subscriber.combineIdentifier
    receiveSubscriptionBody = subscriber.receive(subscription:)
    receiveValueBody = subscriber.receive(_:)
    receiveCompletionBody = subscriber.receive(completion:)
  }

  /// Wraps a subject: the subscription, values and completion are sent to it, as Combine does.
  ///
  /// The subject asks the subscription for values (once one of its own subscribers has asked).
  /// A second subscription is cancelled, and events after the completion are ignored.
  public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
    let state = SubjectInletState()
    combineIdentifier = CombineIdentifier()
    receiveSubscriptionBody = { subscription in
      guard state.accept() else {
        subscription.cancel()
        return
      }
      subject.send(subscription: subscription)
    }
    receiveValueBody = { value in
      if state.isOpen { subject.send(value) }
      return .none
    }
    receiveCompletionBody = { completion in
      if state.close() { subject.send(completion: completion) }
    }
  }

  /// A subscriber made of closures; missing closures ignore the event (and demand `.none`).
  public init(
    receiveSubscription: ((any Subscription) -> Void)? = nil,
    receiveValue: ((Input) -> Subscribers.Demand)? = nil,
    receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
  ) {
    combineIdentifier = CombineIdentifier()
    receiveSubscriptionBody = receiveSubscription ?? { _ in }
    receiveValueBody = receiveValue ?? { _ in .none }
    receiveCompletionBody = receiveCompletion ?? { _ in }
  }

  public var description: String { "AnySubscriber" }

  @inlinable
  public func receive(subscription: any Subscription) {
    receiveSubscriptionBody(subscription)
  }

  @inlinable
  public func receive(_ input: Input) -> Subscribers.Demand {
    receiveValueBody(input)
  }

  @inlinable
  public func receive(completion: Subscribers.Completion<Failure>) {
    receiveCompletionBody(completion)
  }
}

/// Whether an ``AnySubscriber`` made from a subject has its subscription and is still open.
@usableFromInline
internal final class SubjectInletState {
  private enum Phase {
    case awaitingSubscription
    case subscribed
    case completed
  }

  private let lock = StreamsLock()
  // Protected by `lock`.
  private var phase = Phase.awaitingSubscription

  init() {}

  /// Takes the first subscription; false for any later one or after the completion.
  func accept() -> Bool {
    lock.withLock {
      guard case .awaitingSubscription = phase else { return false }
      phase = .subscribed
      return true
    }
  }

  /// Whether values are still passed on.
  var isOpen: Bool {
    lock.withLock {
      if case .completed = phase { return false }
      return true
    }
  }

  /// Takes the completion; false if one already arrived.
  func close() -> Bool {
    lock.withLock {
      if case .completed = phase { return false }
      phase = .completed
      return true
    }
  }
}
