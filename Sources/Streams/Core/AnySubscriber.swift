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

  /// Wraps a subject: values and completion are sent to it, and it requests unlimited demand.
  public init<S: Subject>(_ subject: S) where S.Output == Input, S.Failure == Failure {
    combineIdentifier = CombineIdentifier()
    receiveSubscriptionBody = { subscription in
      subject.send(subscription: subscription)
      subscription.request(.unlimited)
    }
    receiveValueBody = { value in
      subject.send(value)
      return .none
    }
    receiveCompletionBody = { subject.send(completion: $0) }
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
