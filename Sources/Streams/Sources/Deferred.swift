/// A publisher that creates its real publisher for each subscriber, when it subscribes.
///
/// ```swift
/// let now = Deferred { Just(Date()) }   // each subscriber gets the date of its subscription
/// ```
public struct Deferred<DeferredPublisher: Publisher>: Publisher {
  public typealias Output = DeferredPublisher.Output
  public typealias Failure = DeferredPublisher.Failure

  /// Makes the publisher a new subscriber attaches to.
  public let createPublisher: () -> DeferredPublisher

  /// A publisher that calls `createPublisher` on every subscription.
  @inlinable
  public init(createPublisher: @escaping () -> DeferredPublisher) {
    self.createPublisher = createPublisher
  }

  @inlinable
  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    createPublisher().receive(subscriber: subscriber)
  }
}
