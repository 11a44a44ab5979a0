import Foundation

/// Gives access to nodes and owns the subscriptions made through them.
///
/// Subscriptions created with `stores: true` (the default) live as long as their manager: they
/// are cancelled implicitly when the manager is deinitialized, explicitly by
/// ``unsubscribeFromAll()``.
/// A stored subscription never keeps its manager alive. Keep a manager in the object that owns
/// the subscriptions (for example a view model).
///
/// ```swift
/// let manager = Webcom.defaultApplication.datasyncService.createManager()
/// let messages = manager / "rooms/general/messages"
/// ```
public final class DatasyncManager: @unchecked Sendable {
  let service: DatasyncService
  /// Protects `stored` and `stateObservers`.
  private let lock = NSLock()
  private var stored: [ObjectIdentifier: DatasyncSubscription] = [:]
  private var stateObservers: [UInt64] = []

  init(service: DatasyncService) {
    self.service = service
  }

  deinit {
    let (subscriptions, observers) = lock.withLock { (stored, stateObservers) }
    for subscription in subscriptions.values { subscription.cancel(explicitly: false) }
    for observer in observers { service.client.removeStateObserver(observer) }
  }

  /// The node at an absolute path, nil only when the path is ill-formed.
  ///
  /// Paths follow the rules of ``DatasyncNode/relativeNode(for:)`` from the root: `"a/b"`,
  /// `"/a/b/"` and `"a/./c/../b"` all give `/a/b`.
  public func node(for path: String) -> DatasyncNode? {
    try? nodeThrows(for: path)
  }

  /// The node at an absolute path.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath`, naming the path and the reason.
  public func nodeThrows(for path: String) throws -> DatasyncNode {
    DatasyncNode(manager: self, location: try DatasyncPath(parsing: path))
  }

  /// The node at an absolute path: `manager / "rooms/general"`; nil when the path is ill-formed.
  public static func / (manager: DatasyncManager, path: String) -> DatasyncNode? {
    manager.node(for: path)
  }

  /// Cancels every subscription this manager stores, explicitly: each completes with
  /// ``DatasyncSubscriptionCompletion/cancelled(explicitly:)`` true, as ``DatasyncSubscription/cancel()``
  /// would, so a ``DatasyncCompletedSubscriptionPolicy/keepUpdatingDataWhenImplicit`` policy
  /// drops the data. Subscriptions made with `stores: false` are not affected.
  public func unsubscribeFromAll() {
    let subscriptions = lock.withLock { () -> [DatasyncSubscription] in
      defer { stored = [:] }
      return Array(stored.values)
    }
    for subscription in subscriptions { subscription.cancel(explicitly: true) }
  }

  /// Calls `onChange` on `queue` with the service's connection state, then at every change, for
  /// as long as the observation and this manager live (``unsubscribeFromAll()`` does not end it).
  ///
  /// States arrive in order and never the same state twice in a row.
  ///
  /// ```swift
  /// let observation = manager.observeState(queue: .main) { state in
  ///   banner.isHidden = state != .disconnected
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - queue: The queue `onChange` is called on.
  ///   - onChange: Receives the current state, then each new state.
  /// - Returns: The observation; cancel it to stop observing.
  @discardableResult
  public func observeState(
    queue: DispatchQueue = .main, onChange: @escaping (DatasyncState) -> Void
  ) -> DatasyncStateObservation {
    let relay = StateRelay(queue: queue, onChange: onChange)
    let client = service.client
    let token = client.addStateObserver { state in relay.deliverChange(state) }
    lock.withLock { stateObservers.append(token) }
    relay.deliverInitial(client.state)
    return DatasyncStateObservation { [weak self] in
      relay.stop()
      client.removeStateObserver(token)
      guard let self else { return }
      lock.withLock { stateObservers.removeAll { $0 == token } }
    }
  }

  func store(_ subscription: DatasyncSubscription) {
    lock.withLock { stored[ObjectIdentifier(subscription)] = subscription }
  }

  func forget(_ subscription: DatasyncSubscription) {
    _ = lock.withLock { stored.removeValue(forKey: ObjectIdentifier(subscription)) }
  }
}
