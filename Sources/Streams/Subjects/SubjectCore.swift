/// The state both subjects share: subscribers in subscription order, completion, upstreams.
///
/// Thread-safe through its lock; the subjects call out only after unlocking.
internal final class SubjectCore<Output, Failure: Error>: @unchecked Sendable {
  typealias Conduit = SubjectConduit<Output, Failure>

  private let lock = StreamsLock()
  // Protected by `lock`: the conduits in subscription order, the completion once sent, the
  // upstream subscriptions received through `send(subscription:)`, the send sequence number.
  private var conduits: [Conduit] = []
  private var completion: Subscribers.Completion<Failure>?
  private var upstreams: [any Subscription] = []
  private var sequence: UInt64 = 0

  /// Registers a conduit, or returns the completion if the subject already completed.
  func attach(_ conduit: Conduit) -> Subscribers.Completion<Failure>? {
    lock.lock()
    defer { lock.unlock() }
    if let completion { return completion }
    conduits.append(conduit)
    return nil
  }

  func detach(_ identifier: ObjectIdentifier) {
    lock.lock()
    let index = conduits.firstIndex { ObjectIdentifier($0) == identifier }
    let removed = index.map { conduits.remove(at: $0) }
    lock.unlock()
    withExtendedLifetime(removed) {}
  }

  /// The conduits to offer a value to, after `update` ran under the lock; nil once completed.
  func prepareSend(_ update: (UInt64) -> Void) -> (conduits: [Conduit], sequence: UInt64)? {
    lock.lock()
    defer { lock.unlock() }
    guard completion == nil else { return nil }
    sequence += 1
    update(sequence)
    return (conduits, sequence)
  }

  /// Marks the subject completed and returns the conduits to finish.
  func complete(_ completion: Subscribers.Completion<Failure>) -> [Conduit] {
    lock.lock()
    defer { lock.unlock() }
    guard self.completion == nil else { return [] }
    self.completion = completion
    let finishing = conduits
    conduits = []
    upstreams = []
    return finishing
  }

  /// Keeps an upstream subscription; returns false if the subject already completed.
  func addUpstream(_ subscription: any Subscription) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    guard completion == nil else { return false }
    upstreams.append(subscription)
    return true
  }

  func withLock<Result>(_ body: () -> Result) -> Result {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}
