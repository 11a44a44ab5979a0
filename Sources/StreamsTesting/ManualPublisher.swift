import Foundation
import Streams

/// A publisher driven by hand from a test, which reports what its subscribers asked of it.
///
/// `send(_:)` delivers to every current subscriber whatever its demand, so a test can check how
/// the operator under test treats demand; ``requestedDemand`` and ``cancelCount`` show what the
/// operator asked upstream.
///
/// ```swift
/// let upstream = ManualPublisher<Int, Never>()
/// let recorder = RecordingSubscriber<Int, Never>(initialDemand: .max(2))
/// upstream.map { $0 + 1 }.subscribe(recorder)
/// #expect(upstream.requestedDemand == .max(2))
/// ```
public final class ManualPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`: live subscriptions, the demand log and the cancel count.
  private var subscriptions: [Link] = []
  private var demands: [Subscribers.Demand] = []
  private var cancels = 0
  private var subscribes = 0

  /// A publisher without subscribers.
  public init() {}

  /// Every demand requested, in order, by any subscriber.
  public var demandLog: [Subscribers.Demand] { lock.withLock { demands } }

  /// The sum of every demand requested.
  public var requestedDemand: Subscribers.Demand {
    lock.withLock { demands.reduce(.none, +) }
  }

  /// How many times a subscription was cancelled.
  public var cancelCount: Int { lock.withLock { cancels } }

  /// How many subscribers attached, ever.
  public var subscriptionCount: Int { lock.withLock { subscribes } }

  /// Whether at least one subscriber is attached and not cancelled or completed.
  public var hasSubscribers: Bool { lock.withLock { !subscriptions.isEmpty } }

  /// Delivers `value` to every attached subscriber; returns the demand each one returned.
  @discardableResult
  public func send(_ value: Output) -> [Subscribers.Demand] {
    let links = lock.withLock { subscriptions }
    return links.map { $0.receive(value) }
  }

  /// Completes every attached subscriber.
  public func send(completion: Subscribers.Completion<Failure>) {
    let links = lock.withLock {
      let links = subscriptions
      subscriptions = []
      return links
    }
    for link in links {
      link.receive(completion: completion)
    }
  }

  public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
    let link = Link(subscriber: AnySubscriber(subscriber), owner: self)
    lock.withLock {
      subscriptions.append(link)
      subscribes += 1
    }
    subscriber.receive(subscription: link)
  }

  fileprivate func record(_ demand: Subscribers.Demand) {
    lock.withLock { demands.append(demand) }
  }

  fileprivate func remove(_ link: Link) {
    let removed: Link? = lock.withLock {
      cancels += 1
      guard let index = subscriptions.firstIndex(where: { $0 === link }) else { return nil }
      return subscriptions.remove(at: index)
    }
    withExtendedLifetime(removed) {}
  }

  /// One subscriber's subscription.
  ///
  /// A small transfer box, with no lock of its own: both fields are set at creation and never
  /// change (`owner` is weak, so a cancelled link does not keep the publisher alive). The
  /// publisher's lock protects what `request` and `cancel` change; the subscriber is only called
  /// as the publisher's contract allows, one signal at a time.
  fileprivate final class Link: Subscription, @unchecked Sendable {
    let subscriber: AnySubscriber<Output, Failure>
    weak let owner: ManualPublisher?

    init(subscriber: AnySubscriber<Output, Failure>, owner: ManualPublisher) {
      self.subscriber = subscriber
      self.owner = owner
    }

    func receive(_ value: Output) -> Subscribers.Demand { subscriber.receive(value) }

    func receive(completion: Subscribers.Completion<Failure>) {
      subscriber.receive(completion: completion)
    }

    func request(_ demand: Subscribers.Demand) { owner?.record(demand) }

    func cancel() { owner?.remove(self) }
  }
}
