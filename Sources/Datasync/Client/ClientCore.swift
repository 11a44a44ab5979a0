import Foundation

/// The client side of Datasync: a local cache (server data + pending-write overlay), one view per
/// (path, constraint) shared by its subscriptions, and the event generation.
///
/// Thread-safe: every entry point takes the lock, changes the state, enqueues the resulting event
/// batches on the subscribers' queues and the requests on the connection (both are enqueues that
/// never run user code, made under the lock so that their order is the order of the changes),
/// unlocks, and only then calls the internal answer closures.
final class ClientCore: @unchecked Sendable {
  /// The answer to a request: the written value for writes, the value for reads.
  typealias Answer = @Sendable (WebcomResult<JSONValue>) -> Void

  private struct ViewKey: Hashable {
    let path: DatasyncPath
    let constraint: DatasyncChildrenConstraint
  }

  /// The subscriptions sharing one (path, constraint); accessed only under the lock.
  private final class View {
    let path: DatasyncPath
    let constraint: DatasyncChildrenConstraint
    let sequence: UInt64
    var subscriptions: [SubscriptionCore] = []
    var isComplete: Bool

    init(
      path: DatasyncPath, constraint: DatasyncChildrenConstraint, sequence: UInt64, isComplete: Bool
    ) {
      self.path = path
      self.constraint = constraint
      self.sequence = sequence
      self.isComplete = isComplete
    }
  }

  private struct RunningTransaction {
    let path: DatasyncPath
    var isAborted = false
  }

  private struct Listen {
    var viewCount = 0
    var isComplete = false
  }

  private let connection: BackEndConnection

  /// Protects every property below.
  private let lock = NSLock()
  private var server: JSONValue = .null
  private var visible: JSONValue = .null
  private var pending = PendingWrites()
  private var listens: [DatasyncPath: Listen] = [:]
  private var views: [ViewKey: View] = [:]
  private var answers: [WriteIdentifier: Answer] = [:]
  private var readPaths: [WriteIdentifier: DatasyncPath] = [:]
  private var outbox: [ClientRequest] = []
  private var isEnabled = true
  private var connectionState = DatasyncState.disconnected
  private var stateObservers: [UInt64: @Sendable (DatasyncState) -> Void] = [:]
  private var nextIdentifier: UInt64 = 1
  private var runningTransactions: [UInt64: RunningTransaction] = [:]
  /// The back end's clock minus the local clock, as last announced (kept while disconnected).
  private var clockOffset: TimeInterval = 0

  init(connection: BackEndConnection) {
    self.connection = connection
    connection.open { [weak self] message in self?.receive(message) }
  }

  /// Closes the connection and answers the requests still waiting, as nothing else will: those
  /// never sent fail with `writeCancelled` (a write or a disconnection write: not applied) or
  /// `disconnected` (a read); those sent fail with `disconnected` (a write may have been applied).
  deinit {
    connection.close()
    var unsent: [WriteIdentifier: ClientRequest] = [:]
    for request in outbox {
      if let identifier = Self.identifier(of: request) { unsent[identifier] = request }
    }
    let waiting = pending.all.map { ($0.identifier, $0.operation.path) }
    let writePaths = Dictionary(waiting, uniquingKeysWith: { first, _ in first })
    for (identifier, answer) in answers.sorted(by: { $0.key < $1.key }) {
      let error: WebcomError
      if let request = unsent[identifier] {
        error = Self.unsentRequestError(request)
      } else if let path = readPaths[identifier] {
        error = WebcomError(
          .disconnected,
          "the service was released before the back end answered the read of \(path.string)")
      } else {
        let subject = writePaths[identifier].map { "the write to \($0.string)" } ?? "a request"
        error = WebcomError(
          .disconnected,
          "the service was released before the back end answered \(subject); "
            + "it may have been applied")
      }
      answer(.failure(error))
    }
  }

  /// The identifier of a request that expects an answer.
  private static func identifier(of request: ClientRequest) -> WriteIdentifier? {
    switch request {
    case .listen, .unlisten: nil
    case .write(let identifier, _), .writeOnDisconnection(let identifier, _, _),
      .cancelDisconnectionWrites(let identifier, _), .read(let identifier, _),
      .authenticate(let identifier, _), .signOut(let identifier):
      identifier
    }
  }

  /// The error of a request the service never sent because it was released first.
  private static func unsentRequestError(_ request: ClientRequest) -> WebcomError {
    let reason = "the service was released before it was sent to the back end"
    switch request {
    case .read(_, let path):
      return WebcomError(.disconnected, "cannot read \(path.string): \(reason)")
    case .write(_, let operation), .writeOnDisconnection(_, let operation, _):
      return WebcomError(
        .writeCancelled, "the write to \(operation.path.string) was not applied: \(reason)")
    case .cancelDisconnectionWrites(_, let path):
      return WebcomError(
        .writeCancelled,
        "the disconnection writes at \(path.string) were not cancelled: \(reason)")
    case .listen, .unlisten, .authenticate, .signOut:
      return WebcomError(.disconnected, reason)
    }
  }

  // MARK: Reading

  /// The back end's current time as estimated by this client.
  var backEndNow: Date {
    lock.withLock { backEndNowLocked }
  }

  /// What the cache holds at a path (null when nothing is known).
  func cachedValue(at path: DatasyncPath) -> JSONValue {
    lock.withLock { visible.value(at: path.keys) }
  }

  /// The complete value at a path: from the cache when it holds complete data there (see
  /// ``hasCompleteDataLocked(at:)``), else from the back end; while the application has disabled
  /// the connection, `disconnected` instead of waiting.
  func read(at path: DatasyncPath, answer: @escaping Answer) {
    let result = lock.withLock { () -> WebcomResult<JSONValue>? in
      if hasCompleteDataLocked(at: path) { return .success(visible.value(at: path.keys)) }
      guard isEnabled else { return .failure(Self.disabledReadError(at: path)) }
      let identifier = makeIdentifierLocked()
      answers[identifier] = answer
      readPaths[identifier] = path
      sendLocked(.read(identifier, path))
      return nil
    }
    if let result { answer(result) }
  }

  private static func disabledReadError(at path: DatasyncPath) -> WebcomError {
    WebcomError(
      .disconnected,
      "cannot read \(path.string): the connection is disabled and the cache does not hold the "
        + "complete value (subscribe to the node, or set it, to keep it in the cache)")
  }

  // MARK: Writing

  /// Applies a write locally (raising its events at once) and sends it to the back end; `answer`
  /// gets the written value or the back end's error.
  ///
  /// - Throws: ``WebcomError`` (`invalidPath`, `invalidValue`) when a written path would exceed
  ///   the limits of paths; nothing is applied nor sent.
  func write(_ operation: WriteOperation, answer: Answer?) throws(WebcomError) {
    try operation.checkLimits()
    lock.withLock {
      abortTransactionsLocked(overlapping: operation)
      let identifier = makeIdentifierLocked()
      let local = operation.resolvingServerValues(now: backEndNowLocked)
      let old = visible
      visible = local.applyingOptimistically(to: visible)
      pending.append(PendingWrites.Write(identifier: identifier, operation: local))
      emitLocked(from: old, footprints: local.footprints)
      completeViewsLocked { pending.replacesWholeValue(at: $0.path) }
      if let answer { answers[identifier] = answer }
      sendLocked(.write(identifier, operation))
    }
  }

  /// Registers a write the back end runs when this client disconnects.
  ///
  /// - Throws: as ``write(_:answer:)``; nothing is sent.
  func writeOnDisconnection(_ operation: WriteOperation, repeating: Bool, answer: Answer?)
    throws(WebcomError)
  {
    try operation.checkLimits()
    request(answer: answer) { .writeOnDisconnection($0, operation, repeating: repeating) }
  }

  /// Cancels the disconnection writes registered at (or below) a path.
  func cancelDisconnectionWrites(at path: DatasyncPath, answer: Answer?) {
    request(answer: answer) { .cancelDisconnectionWrites($0, path) }
  }

  /// Runs a transaction: `compute` maps the current value to the new one (nil aborts); the write
  /// is a compare-and-set at the back end, re-run with the newer value on conflict. A plain write
  /// (set or merge) at, above or below the path aborts it: it completes with `committed == false`
  /// unless its compare-and-set, already sent, succeeds.
  func transaction(
    at path: DatasyncPath,
    compute: @escaping @Sendable (JSONValue) -> WebcomResult<JSONValue?>,
    completion: @escaping @Sendable (WebcomResult<(committed: Bool, value: JSONValue)>) -> Void
  ) {
    let token = lock.withLock { () -> UInt64 in
      let token = makeIdentifierLocked()
      runningTransactions[token] = RunningTransaction(path: path)
      return token
    }
    runTransaction(token, at: path, attempt: 1, compute: compute) { [weak self] result in
      if let self {
        _ = self.lock.withLock { self.runningTransactions.removeValue(forKey: token) }
      }
      completion(result)
    }
  }

  private func runTransaction(
    _ token: UInt64, at path: DatasyncPath, attempt: Int,
    compute: @escaping @Sendable (JSONValue) -> WebcomResult<JSONValue?>,
    completion: @escaping @Sendable (WebcomResult<(committed: Bool, value: JSONValue)>) -> Void
  ) {
    let (current, isAborted) = lock.withLock {
      (visible.value(at: path.keys), runningTransactions[token]?.isAborted ?? true)
    }
    if isAborted {
      completion(.success((committed: false, value: current)))
      return
    }
    let newValue: JSONValue?
    switch compute(current) {
    case .success(let value): newValue = value
    case .failure(let error):
      completion(.failure(error))
      return
    }
    guard let newValue else {
      completion(.success((committed: false, value: current)))
      return
    }
    let answer: Answer = { [weak self] result in
      switch result {
      case .success(let value):
        completion(.success((committed: true, value: value)))
      case .failure(let error) where error.code == .transactionAborted:
        guard let self else {
          completion(.failure(error))
          return
        }
        guard attempt < Self.maximumTransactionAttempts else {
          completion(
            .failure(
              WebcomError(
                .transactionTooManyRetries,
                "the transaction at \(path.string) conflicted \(attempt) times with other writes")))
          return
        }
        self.runTransaction(
          token, at: path, attempt: attempt + 1, compute: compute, completion: completion)
      case .failure(let error):
        completion(.failure(error))
      }
    }
    do throws(WebcomError) {
      try write(.compareAndSet(path, expected: current, value: newValue), answer: answer)
    } catch {
      completion(.failure(error))
    }
  }

  static let maximumTransactionAttempts = 25

  // MARK: Subscribing

  /// Registers a subscription on the view of its (path, constraint); replays the current data at
  /// once when the view is complete, else as soon as the back end has sent it.
  func subscribe(_ subscription: SubscriptionCore) {
    lock.withLock {
      subscription.sequence = makeIdentifierLocked()
      let key = ViewKey(path: subscription.path, constraint: subscription.constraint)
      let view: View
      if let existing = views[key] {
        view = existing
      } else {
        view = View(
          path: key.path, constraint: key.constraint, sequence: subscription.sequence,
          isComplete: hasCompleteDataLocked(at: key.path))
        views[key] = view
        listens[key.path, default: Listen()].viewCount += 1
        if listens[key.path]?.viewCount == 1 && connectionState != .disconnected {
          connection.send(.listen(key.path))
        }
      }
      view.subscriptions.append(subscription)
      if view.isComplete { replayLocked(subscription, on: view) }
    }
  }

  /// Removes a subscription; the view goes when its last subscription goes, and then the data
  /// of its path is handled according to `policy` (`explicitly` tells how the subscription ended).
  func unsubscribe(
    _ subscription: SubscriptionCore, policy: DatasyncCompletedSubscriptionPolicy,
    explicitly: Bool
  ) {
    lock.withLock {
      let key = ViewKey(path: subscription.path, constraint: subscription.constraint)
      guard let view = views[key] else { return }
      view.subscriptions.removeAll { $0 === subscription }
      guard view.subscriptions.isEmpty else { return }
      views[key] = nil
      listens[key.path]?.viewCount -= 1
      guard listens[key.path]?.viewCount == 0 else { return }
      switch policy {
      case .keepUpdatingData,
        .keepUpdatingDataWhenImplicit where !explicitly:
        return
      case .keepData:
        stopListeningLocked(key.path)
      case .forgetData, .keepUpdatingDataWhenImplicit:
        stopListeningLocked(key.path)
        forgetLocked(key.path)
      }
    }
  }

  // MARK: Connection

  var state: DatasyncState { lock.withLock { connectionState } }

  var isConnectionEnabled: Bool { lock.withLock { isEnabled } }

  /// Disconnects (writes keep applying locally and queue) or reconnects (queued writes are sent
  /// in order). Disconnecting answers the reads still waiting for the back end: from the cache
  /// when it holds their complete value, else with `disconnected`.
  func setConnectionEnabled(_ enabled: Bool) {
    let (changed, callouts) = lock.withLock { () -> (Bool, [() -> Void]) in
      guard enabled != isEnabled else { return (false, []) }
      isEnabled = enabled
      var callouts = enabled ? [] : abandonReadsLocked()
      // Until the back end confirms the reconnection, requests queue in the outbox so that
      // they keep their order.
      if let callout = setStateLocked(.disconnected) { callouts.append(callout) }
      return (true, callouts)
    }
    if changed { connection.setConnected(enabled) }
    for callout in callouts { callout() }
  }

  /// Stops waiting for the reads sent to the back end (a late answer is ignored) and returns the
  /// calls that answer them.
  private func abandonReadsLocked() -> [() -> Void] {
    guard !readPaths.isEmpty else { return [] }
    let abandoned = readPaths.sorted { $0.key < $1.key }
    readPaths = [:]
    outbox.removeAll { request in
      if case .read = request { return true }
      return false
    }
    return abandoned.compactMap { identifier, path in
      guard let answer = answers.removeValue(forKey: identifier) else { return nil }
      let result: WebcomResult<JSONValue> =
        hasCompleteDataLocked(at: path)
        ? .success(visible.value(at: path.keys)) : .failure(Self.disabledReadError(at: path))
      return { answer(result) }
    }
  }

  /// Calls `observer` on every change of the connection state; returns a token for
  /// ``removeStateObserver(_:)``.
  func addStateObserver(_ observer: @escaping @Sendable (DatasyncState) -> Void) -> UInt64 {
    lock.withLock {
      let token = makeIdentifierLocked()
      stateObservers[token] = observer
      return token
    }
  }

  func removeStateObserver(_ token: UInt64) {
    _ = lock.withLock { stateObservers.removeValue(forKey: token) }
  }

  // MARK: Messages from the back end

  private func receive(_ message: BackEndMessage) {
    var callouts: [() -> Void] = []
    lock.withLock {
      switch message {
      case .connected(let offset):
        guard isEnabled else { return }
        clockOffset = offset
        for path in listens.keys { connection.send(.listen(path)) }
        for request in outbox { connection.send(request) }
        outbox = []
        if let callout = setStateLocked(.connected(clockOffset: offset)) {
          callouts.append(callout)
        }
      case .disconnected:
        if let callout = setStateLocked(.disconnected) { callouts.append(callout) }
      case .listenData(let path, let value):
        guard listens[path] != nil else { return }
        applyServerLocked(.set(path, value))
        listens[path]?.isComplete = true
        completeViewsLocked { path.isAncestorOrSelf(of: $0.path) }
      case .changed(let operation):
        applyServerLocked(operation)
      case .acknowledged(let identifier, let announced):
        acknowledgeLocked(identifier, announced: announced)
        if let answer = answers.removeValue(forKey: identifier) {
          let value: JSONValue
          if case .set(_, let written)? = announced { value = written } else { value = .null }
          callouts.append { answer(.success(value)) }
        }
      case .rejected(let identifier, let error, let current):
        rejectLocked(identifier, current: current)
        if let answer = answers.removeValue(forKey: identifier) {
          callouts.append { answer(.failure(error)) }
        }
      case .value(let identifier, let value):
        guard let path = readPaths.removeValue(forKey: identifier) else { return }
        applyServerLocked(.set(path, value))
        let result = visible.value(at: path.keys)
        if let answer = answers.removeValue(forKey: identifier) {
          callouts.append { answer(.success(result)) }
        }
      case .revoked(let path, let error):
        callouts.append(revokeLocked(at: path, error: error))
      case .authenticated, .authenticationChanged:
        // This client never asks to authenticate: only the embedded connection's hooks do, and
        // they take their answers.
        return
      }
    }
    for callout in callouts { callout() }
  }

  // MARK: Locked helpers

  /// The local clock corrected by the last known offset of the back end's clock.
  private var backEndNowLocked: Date {
    Date(timeIntervalSinceNow: clockOffset)
  }

  /// Marks the running transactions a plain write overlaps as aborted: a set at, above or below
  /// the transaction's node, a merge that writes a location at, above or below it.
  private func abortTransactionsLocked(overlapping operation: WriteOperation) {
    guard !runningTransactions.isEmpty else { return }
    let written: [DatasyncPath]
    switch operation {
    case .set(let path, _): written = [path]
    case .merge(let path, let entries): written = entries.map { $0.path(under: path) }
    case .increment, .compareAndSet: return
    }
    for (token, transaction) in runningTransactions
    where written.contains(where: {
      $0.isAncestorOrSelf(of: transaction.path) || transaction.path.isAncestor(of: $0)
    }) {
      runningTransactions[token]?.isAborted = true
    }
  }

  private func makeIdentifierLocked() -> UInt64 {
    defer { nextIdentifier += 1 }
    return nextIdentifier
  }

  private func request(answer: Answer?, _ make: (WriteIdentifier) -> ClientRequest) {
    lock.withLock {
      let identifier = makeIdentifierLocked()
      if let answer { answers[identifier] = answer }
      sendLocked(make(identifier))
    }
  }

  /// Sends a request now, or queues it until the connection is back.
  private func sendLocked(_ request: ClientRequest) {
    if connectionState == .disconnected || !isEnabled {
      outbox.append(request)
    } else {
      connection.send(request)
    }
  }

  private func stopListeningLocked(_ path: DatasyncPath) {
    listens[path] = nil
    if connectionState != .disconnected { connection.send(.unlisten(path)) }
  }

  /// Drops the cached data of a path that no listen keeps up to date any more.
  private func forgetLocked(_ path: DatasyncPath) {
    guard !isCoveredLocked(path), !listens.keys.contains(where: { path.isAncestor(of: $0) })
    else { return }
    server = server.setting(.null, at: path.keys)
    visible = pending.applied(to: server)
  }

  /// Whether the cache holds the complete value at a path: a listen at or above it has brought
  /// the back end's data (and keeps it up to date while connected), or a pending local write
  /// replaces the whole value there (a `set` at or above it, or a `merge` naming the child at or
  /// above it). A merge alone never makes its own node complete.
  private func hasCompleteDataLocked(at path: DatasyncPath) -> Bool {
    isCoveredLocked(path) || pending.replacesWholeValue(at: path)
  }

  /// Whether a listen at or above a path has brought the back end's complete data.
  private func isCoveredLocked(_ path: DatasyncPath) -> Bool {
    var node: DatasyncPath? = path
    while let current = node {
      if listens[current]?.isComplete == true { return true }
      node = current.parent
    }
    return false
  }

  /// Applies data from the back end under the pending writes, and raises the resulting events.
  private func applyServerLocked(_ operation: WriteOperation) {
    let old = visible
    server = operation.applyingOptimistically(to: server)
    if pending.isEmpty {
      visible = server
      emitLocked(from: old, footprints: operation.footprints)
    } else {
      visible = pending.applied(to: server)
      emitLocked(from: old, footprints: operation.footprints + pending.footprints)
    }
  }

  private func acknowledgeLocked(_ identifier: WriteIdentifier, announced: WriteOperation?) {
    guard let first = pending.first, first.identifier == identifier else {
      if let write = pending.remove(identifier) {
        if let announced { server = announced.applyingOptimistically(to: server) }
        reapplyPendingLocked(footprints: write.operation.footprints)
        emitAcknowledgementsLocked(of: write.operation.footprints)
      }
      return
    }
    let expected = first.operation.applyingOptimistically(to: server)
    if let announced { server = announced.applyingOptimistically(to: server) }
    _ = pending.remove(identifier)
    // Only the written parts can differ (server values, increments, merges into a node that
    // changed kind): compare those, never the untouched data around them.
    let footprints = first.operation.footprints
    if !ChangeEffect.effects(of: footprints, from: expected, to: server).isEmpty {
      reapplyPendingLocked(footprints: footprints)
    }
    emitAcknowledgementsLocked(of: footprints)
  }

  /// Tells the subscriptions that asked for acknowledgements which data the back end confirmed:
  /// one child acknowledgement per confirmed child inside the window of every view touched by the
  /// write, then one value acknowledgement per view (see ``emitLocked(from:footprints:)`` for the
  /// order).
  private func emitAcknowledgementsLocked(of footprints: [ChangeFootprint]) {
    let candidates = views.values.filter { view in
      view.isComplete
        && view.subscriptions.contains {
          $0.wants(.valueAcknowledgement) || $0.wants(.childAcknowledgement)
        }
    }
    var acknowledgements: [(view: View, children: [EventRecord], value: EventRecord)] = []
    let effects = footprints.map(ChangeEffect.init(footprint:))
    for view in candidates.sorted(by: Self.precedes) {
      let keys: Set<WebcomKey>?
      switch ViewRelevance(of: effects, at: view.path) {
      case .none: continue
      case .whole: keys = nil
      case .children(let children): keys = children
      }
      let window = ChildrenWindow(
        node: visible.value(at: view.path.keys), constraint: view.constraint)
      let confirmed =
        keys.map { $0.sorted().compactMap { key in window.value(of: key).map { (key, $0) } } }
        ?? Array(window.elements.map { ($0.key, $0.value) })
      let childRecords = confirmed.map { key, value in
        let path = view.path.child(key)
        return EventRecord(
          eventType: .childAcknowledgement, path: path, value: value,
          previousKey: window.previousKey(of: key), acked: !pending.overlaps(path))
      }
      let valueRecord = EventRecord(
        eventType: .valueAcknowledgement, path: view.path, value: window.value, previousKey: nil,
        acked: !pending.overlaps(view.path))
      acknowledgements.append((view, childRecords, valueRecord))
    }
    for (view, childRecords, _) in acknowledgements {
      for subscription in view.subscriptions where subscription.wants(.childAcknowledgement) {
        subscription.enqueue(childRecords)
      }
    }
    for (view, _, valueRecord) in acknowledgements {
      for subscription in view.subscriptions where subscription.wants(.valueAcknowledgement) {
        subscription.enqueue([valueRecord])
      }
    }
  }

  private func rejectLocked(_ identifier: WriteIdentifier, current: JSONValue?) {
    guard let write = pending.remove(identifier) else { return }
    if let current { server = server.setting(current, at: write.operation.path.keys) }
    reapplyPendingLocked(footprints: write.operation.footprints)
  }

  private func reapplyPendingLocked(footprints: [ChangeFootprint]) {
    let old = visible
    visible = pending.applied(to: server)
    emitLocked(from: old, footprints: footprints + pending.footprints)
  }

  /// Marks the incomplete views for which `isNowComplete` holds as complete, and replays their
  /// data to their subscriptions, in subscription order. A view stays complete from then on.
  private func completeViewsLocked(where isNowComplete: (View) -> Bool) {
    let completed = views.values.filter { !$0.isComplete && isNowComplete($0) }
    guard !completed.isEmpty else { return }
    for view in completed { view.isComplete = true }
    let replays = completed.flatMap { view in view.subscriptions.map { (view, $0) } }
      .sorted { $0.1.sequence < $1.1.sequence }
    for (view, subscription) in replays { replayLocked(subscription, on: view) }
  }

  private func replayLocked(_ subscription: SubscriptionCore, on view: View) {
    let window = ChildrenWindow(
      node: visible.value(at: view.path.keys), constraint: view.constraint)
    if subscription.wants(.valueChange) {
      subscription.enqueue([
        EventRecord(
          eventType: .valueChange, path: view.path, value: window.value, previousKey: nil,
          acked: !pending.overlaps(view.path))
      ])
    } else if subscription.wants(.childAddition) {
      subscription.enqueue(
        ViewDiff.replay(of: window).map { record(for: $0, in: view) })
    }
  }

  /// Raises the events of the change from `old` to `visible` on every complete view it touched.
  ///
  /// Two passes, so that the order of the events of one change does not depend on which other
  /// views exist: first the child events of every view (deeper views first, then by creation;
  /// each view's in the order removals, additions, changes), then the value events in the same
  /// view order. A subscriber that closes a batch at a value event has therefore seen every
  /// child event of the change, whatever the views of other subscriptions.
  private func emitLocked(from old: JSONValue, footprints: [ChangeFootprint]) {
    guard !views.isEmpty else { return }
    let effects = ChangeEffect.effects(of: footprints, from: old, to: visible)
    guard !effects.isEmpty else { return }
    let touched = views.values.compactMap { view -> (View, ViewRelevance)? in
      guard view.isComplete else { return nil }
      let relevance = ViewRelevance(of: effects, at: view.path)
      if case .none = relevance { return nil }
      return (view, relevance)
    }
    let diffs = touched.sorted { Self.precedes($0.0, $1.0) }.compactMap {
      view, relevance -> (view: View, diff: ViewDiff)? in
      ViewDiff.compute(
        path: view.path, constraint: view.constraint, relevance: relevance, old: old, new: visible
      ).map { (view, $0) }
    }
    for (view, diff) in diffs where !diff.children.isEmpty {
      let childRecords = diff.children.map { record(for: $0, in: view) }
      for subscription in view.subscriptions where !subscription.eventType.isValueType {
        subscription.enqueue(childRecords.filter { subscription.wants($0.eventType) })
      }
    }
    for (view, diff) in diffs where diff.valueChanged {
      let valueRecord = EventRecord(
        eventType: .valueChange, path: view.path, value: diff.window.value, previousKey: nil,
        acked: !pending.overlaps(view.path))
      for subscription in view.subscriptions where subscription.wants(.valueChange) {
        subscription.enqueue([valueRecord])
      }
    }
  }

  /// The order of views' events: deeper paths first, then by creation.
  private static func precedes(_ lhs: View, _ rhs: View) -> Bool {
    lhs.path.depth != rhs.path.depth
      ? lhs.path.depth > rhs.path.depth : lhs.sequence < rhs.sequence
  }

  private func record(for change: ChildChange, in view: View) -> EventRecord {
    let eventType: DatasyncEventType
    switch change.kind {
    case .removal: eventType = .childRemoval
    case .addition: eventType = .childAddition
    case .change: eventType = .childChange
    }
    let path = view.path.child(change.key)
    return EventRecord(
      eventType: eventType, path: path, value: change.value, previousKey: change.previousKey,
      acked: !pending.overlaps(path))
  }

  /// Changes the connection state; returns the call to make to its observers after unlocking.
  private func setStateLocked(_ state: DatasyncState) -> (() -> Void)? {
    guard state != connectionState else { return nil }
    connectionState = state
    let observers = stateObservers.sorted { $0.key < $1.key }.map(\.value)
    return { for observer in observers { observer(state) } }
  }

  /// Ends the subscriptions at or below a path the back end stopped serving, and drops the data
  /// no listen keeps up to date any more.
  private func revokeLocked(at path: DatasyncPath, error: WebcomError) -> () -> Void {
    let revoked = views.filter { path.isAncestorOrSelf(of: $0.key.path) }
    var subscriptions: [SubscriptionCore] = []
    for (key, view) in revoked.sorted(by: { $0.value.sequence < $1.value.sequence }) {
      views[key] = nil
      subscriptions += view.subscriptions
    }
    for listened in listens.keys where path.isAncestorOrSelf(of: listened) {
      listens[listened] = nil
    }
    forgetLocked(path)
    return {
      for subscription in subscriptions where subscription.complete(.revoked(error)) {
        subscription.detachFromManager()
      }
    }
  }
}
