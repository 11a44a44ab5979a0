import Foundation

extension DatasyncNode {
  /// Subscribes to events of the node.
  ///
  /// The subscription first replays the current data — one child addition per existing child in
  /// key order (within the window of `childrenConstraint`) for child events, the current value
  /// for value events — then delivers live events. The replay is made only from complete data
  /// (the back end's data for the node or an ancestor, or a local `set` of the node or of an
  /// ancestor, even while offline; see ``DatasyncService/isConnectionEnabled``), in subscription
  /// order on `queue`: subscribing to child additions and then to value changes of the same node
  /// delivers that value event after all the replayed additions, which tells that the initial
  /// load is complete.
  ///
  /// For one write (or one message from the back end), the child events of every subscription
  /// of this service come before any value event: first the child events, subscriptions of
  /// deeper nodes first, each subscription's in the order removals, additions, changes; then the
  /// value events, deeper nodes first. Acknowledgements follow the same rule (child
  /// acknowledgements before value acknowledgements). Events of subscriptions sharing `queue`
  /// arrive in that order. Writing a value equal to the current one raises no event. Children
  /// entering the window arrive as additions, children leaving it as removals.
  ///
  /// With `stores: true` the manager keeps the subscription until it is cancelled, the manager is
  /// released, or ``DatasyncManager/unsubscribeFromAll()`` is called; with `stores: false` the
  /// returned subscription must be kept, and releasing it cancels it. Nothing is delivered after
  /// a cancellation; `onCompletion` is called exactly once, on `queue`. Capture the owner of the
  /// manager weakly in `onEvent` to avoid a retain cycle.
  ///
  /// - Parameters:
  ///   - eventType: The events wanted, for example `.childAddition`, `.valueChange` or
  ///     `.child(addition: true, removal: true)`.
  ///   - childrenConstraint: The window of children (`.all` by default). A limit is an upper
  ///     bound: `.startAt(key: k, limit: .max)` is every child from `k` on.
  ///   - stores: Whether the manager keeps the subscription.
  ///   - file: The source file of the call, for diagnostics.
  ///   - line: The source line of the call, for diagnostics.
  ///   - queue: The queue of both callbacks.
  ///   - onEvent: Receives each event.
  ///   - onCompletion: Receives how the subscription ended.
  /// - Returns: The subscription; nil when ``subscribeThrows(to:childrenConstraint:stores:file:line:queue:onEvent:onCompletion:)``
  ///   would throw (no callback is then called).
  @discardableResult
  public func subscribe(
    to eventType: DatasyncEventType, childrenConstraint: DatasyncChildrenConstraint = .all,
    stores: Bool = true, file: String = #file, line: Int = #line, queue: DispatchQueue = .main,
    onEvent: @escaping (DatasyncEvent) -> Void,
    onCompletion: ((DatasyncSubscriptionCompletion) -> Void)? = nil
  ) -> DatasyncSubscription? {
    try? subscribeThrows(
      to: eventType, childrenConstraint: childrenConstraint, stores: stores, file: file,
      line: line, queue: queue, onEvent: onEvent, onCompletion: onCompletion)
  }

  /// Subscribes to events of the node, or tells why the subscription is refused.
  ///
  /// Behaves as ``subscribe(to:childrenConstraint:stores:file:line:queue:onEvent:onCompletion:)``,
  /// which returns nil where this method throws.
  ///
  /// ```swift
  /// do {
  ///   try messages.subscribeThrows(to: .childAddition, childrenConstraint: .last(limit: count)) {
  ///     print($0.key)
  ///   }
  /// } catch {
  ///   print(error.message)  // the children constraint .last(limit: 0) has a limit of 0; ...
  /// }
  /// ```
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` when `eventType` asks for no event or
  ///   `childrenConstraint` has a limit below 1; nothing is subscribed and no callback is called.
  @discardableResult
  public func subscribeThrows(
    to eventType: DatasyncEventType, childrenConstraint: DatasyncChildrenConstraint = .all,
    stores: Bool = true, file: String = #file, line: Int = #line, queue: DispatchQueue = .main,
    onEvent: @escaping (DatasyncEvent) -> Void,
    onCompletion: ((DatasyncSubscriptionCompletion) -> Void)? = nil
  ) throws(WebcomError) -> DatasyncSubscription {
    try subscribeThrows(
      to: eventType, childrenConstraint: childrenConstraint, stores: stores, file: file,
      line: line, queue: queue, conflation: .none, onEvent: onEvent, onDeliveryEnd: nil,
      onCompletion: onCompletion)
  }

  /// Behaves as ``subscribeThrows(to:childrenConstraint:stores:file:line:queue:onEvent:onCompletion:)``
  /// and also calls `onDeliveryEnd` on `queue` after the last event of each batch delivered to the
  /// subscription: a batch holds every write whose events were waiting for the queue, so a
  /// subscriber that only needs the latest state (a stream that coalesces) emits there, once for
  /// all of them. With a `conflation` other than `.none`, the events that wait for the queue
  /// are only those such a subscriber needs (see ``DeliveryConflation``).
  ///
  /// - Throws: As the public method.
  @usableFromInline
  package func subscribeThrows(
    to eventType: DatasyncEventType, childrenConstraint: DatasyncChildrenConstraint,
    stores: Bool, file: String = #file, line: Int = #line, queue: DispatchQueue,
    conflation: DeliveryConflation, onEvent: @escaping (DatasyncEvent) -> Void,
    onDeliveryEnd: (() -> Void)?, onCompletion: ((DatasyncSubscriptionCompletion) -> Void)?
  ) throws(WebcomError) -> DatasyncSubscription {
    guard eventType.asksForEvents else {
      throw WebcomError(
        .invalidArgument, "cannot subscribe to \(path) with \(eventType): it asks for no event")
    }
    try childrenConstraint.validate()
    let core = SubscriptionCore(
      path: location, constraint: childrenConstraint, eventType: eventType, queue: queue,
      context: context, conflation: conflation, onEvent: onEvent, onDeliveryEnd: onDeliveryEnd,
      onCompletion: onCompletion)
    let subscription = DatasyncSubscription(
      core: core, client: client, manager: manager,
      origin: "\((file as NSString).lastPathComponent):\(line)")
    core.attach(subscription, manager: manager)
    if stores { manager.store(subscription) }
    client.subscribe(core)
    return subscription
  }

  /// Subscribes to events of the node and receives their values decoded with the application's
  /// ``WebcomApplication/jsonDecoder``; values that cannot be decoded are skipped.
  ///
  /// Behaves as ``subscribe(to:childrenConstraint:stores:file:line:queue:onEvent:onCompletion:)``.
  ///
  /// - Parameters:
  ///   - eventType: The events wanted (`.valueChange` by default).
  ///   - childrenConstraint: The window of children.
  ///   - stores: Whether the manager keeps the subscription.
  ///   - file: The source file of the call, for diagnostics.
  ///   - line: The source line of the call, for diagnostics.
  ///   - queue: The queue of both callbacks.
  ///   - onValue: Receives each decoded value.
  ///   - onCompletion: Receives how the subscription ended.
  /// - Returns: The subscription, nil as for `subscribe`.
  @discardableResult
  public func decodedValueSubscribe<T: Decodable>(
    to eventType: DatasyncEventType = .valueChange,
    childrenConstraint: DatasyncChildrenConstraint = .all, stores: Bool = true,
    file: String = #file, line: Int = #line, queue: DispatchQueue = .main,
    onValue: @escaping (T) -> Void,
    onCompletion: ((DatasyncSubscriptionCompletion) -> Void)? = nil
  ) -> DatasyncSubscription? {
    let context = self.context
    return subscribe(
      to: eventType, childrenConstraint: childrenConstraint, stores: stores, file: file,
      line: line, queue: queue,
      onEvent: { event in
        if let value = try? event.value.tree.decoded(as: T.self, decoder: context.decoder) {
          onValue(value)
        }
      }, onCompletion: onCompletion)
  }

  /// Keeps a dictionary property equal to the children of the node, decoded with the
  /// application's ``WebcomApplication/jsonDecoder``.
  ///
  /// The dictionary is emptied first, then follows the child additions, changes and removals;
  /// a child that cannot be decoded is left out; a revocation empties it. The object is held
  /// weakly: keep it alive at least as long as the subscription (storing the manager in it with
  /// `stores: true` does that).
  ///
  /// ```swift
  /// final class Directory {
  ///   let manager = Webcom.defaultApplication.datasyncService.createManager()
  ///   var employees: [String: Employee] = [:]
  ///   func start() { (manager / "employees")?.assignChildren(to: \.employees, on: self) }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The dictionary property.
  ///   - object: The object holding it.
  ///   - stores: Whether the manager keeps the subscription.
  ///   - queue: The queue the dictionary is updated on.
  /// - Returns: The underlying subscription.
  @discardableResult
  public func assignChildren<Root: AnyObject, T: Decodable>(
    to keyPath: ReferenceWritableKeyPath<Root, [String: T]>, on object: Root, stores: Bool = true,
    queue: DispatchQueue = .main
  ) -> DatasyncSubscription? {
    let context = self.context
    let reset = UncheckedBox { [weak object] in object?[keyPath: keyPath] = [:] }
    queue.async { reset.value() }
    return subscribe(
      to: .child(addition: true, change: true, removal: true), stores: stores, queue: queue,
      onEvent: { [weak object] event in
        guard let object else { return }
        let key = event.key.value
        if event.eventType == .childRemoval {
          object[keyPath: keyPath][key] = nil
        } else {
          object[keyPath: keyPath][key] = try? event.value.tree.decoded(
            as: T.self, decoder: context.decoder)
        }
      },
      onCompletion: { [weak object] completion in
        if case .revoked = completion { object?[keyPath: keyPath] = [:] }
      })
  }
}
