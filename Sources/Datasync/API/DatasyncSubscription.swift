import Foundation

/// An active subscription to the events of a node, returned by `subscribe`.
///
/// A subscription ends exactly once — by ``cancel()``, implicitly (its manager released for a
/// stored subscription, the subscription itself released otherwise) or by a revocation of the
/// back end — and its `onCompletion` callback is then called once. No event is delivered after
/// the end, even one already queued: the check is made on the subscriber's queue.
public final class DatasyncSubscription: @unchecked Sendable, CustomStringConvertible {
  let core: SubscriptionCore
  private let client: DatasyncClient
  private let origin: String
  /// Protects `manager` and `policy`.
  private let lock = NSLock()
  private weak var manager: DatasyncManager?
  private var policy = DatasyncCompletedSubscriptionPolicy.forgetData

  init(core: SubscriptionCore, client: DatasyncClient, manager: DatasyncManager, origin: String) {
    self.core = core
    self.client = client
    self.origin = origin
    self.manager = manager
  }

  deinit {
    if core.complete(.cancelled(explicitly: false)) {
      client.unsubscribe(core, policy: policy, explicitly: false)
    }
  }

  /// What happens to the cached data of the node once the subscription ends, when no other
  /// subscription uses it (default ``DatasyncCompletedSubscriptionPolicy/forgetData``).
  ///
  /// With `forgetData` the cache drops the data; with `keepData` it keeps the last data
  /// (``DatasyncNode/cachedValue`` still returns it); with `keepUpdatingData` the service keeps
  /// listening, so the cache stays up to date and a later subscription replays at once.
  public var completedSubscriptionPolicy: DatasyncCompletedSubscriptionPolicy {
    get { lock.withLock { policy } }
    set { lock.withLock { policy = newValue } }
  }

  /// Whether the subscription still delivers events.
  public var isActive: Bool { core.isActive }

  /// Cancels the subscription: no further event, `onCompletion` gets
  /// ``DatasyncSubscriptionCompletion/cancelled(explicitly:)`` with true. Idempotent and
  /// thread-safe; may be called from inside the event callback.
  public func cancel() {
    cancel(explicitly: true)
  }

  func cancel(explicitly: Bool) {
    guard core.complete(.cancelled(explicitly: explicitly)) else { return }
    client.unsubscribe(core, policy: completedSubscriptionPolicy, explicitly: explicitly)
    lock.withLock { manager }?.forget(self)
  }

  /// The node path, the event type and where the subscription was made.
  public var description: String {
    "DatasyncSubscription(\(core.path.string), \(core.eventType), made at \(origin))"
  }
}
