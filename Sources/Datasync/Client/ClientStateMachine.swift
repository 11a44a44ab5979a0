import Foundation

/// The client side of Datasync as a value, with no lock and no thread: the cache (the back end's
/// data under the pending writes), the views and the listens, the requests waiting to be sent or
/// answered, the connection state and the running transactions.
///
/// Each operation changes the state and returns the ``ClientEffect``s to perform, in order: event
/// batches for subscriptions, requests for the connection, answers to requests, state
/// notifications. ``DatasyncClient`` keeps it behind a mutex and performs the effects.
///
/// Writes come checked against the limits of paths (``WriteOperation/checkLimits()``); an answer
/// of the back end to a request the client no longer waits for is ignored.
struct ClientStateMachine {
  struct Listen {
    /// The number of views at the listened path.
    var viewCount = 0
    /// Whether the back end has sent the complete data of the path.
    var isComplete = false
  }

  var cache = ClientCache()
  var views = ClientViews()
  var listens = PathTrie<Listen>()
  /// The paths whose data an ended subscription kept (`keepData`): the cache keeps them, with
  /// this client's acknowledged writes there, until a subscription there ends with `forgetData`.
  var keptPaths = PathTrie<Void>()
  var requests = RequestLedger()
  private(set) var runningTransactions = RunningTransactions()
  /// The back end's clock minus the local clock, as last announced (kept while disconnected).
  var clockOffset: TimeInterval = 0
  /// Whether the application lets the client connect.
  private(set) var isConnectionEnabled = true
  private(set) var state = DatasyncState.disconnected
  /// The identity the client is authenticated as: the one the back end gave for ``token``, kept
  /// across disconnections (the token is sent again on reconnection); nil when unauthenticated.
  private(set) var authentication: DatasyncAuthentication?
  /// The token the back end last accepted, sent again first on every reconnection (a connection
  /// starts unauthenticated); nil when unauthenticated.
  var token: String?
  /// The authentication with ``token`` sent on reconnection, until the back end answers it.
  var reauthentication: RequestIdentifier?
  /// Why the back end cannot be reached at all (its configuration is invalid), nil when it can:
  /// every request and subscription then fails at once with this error, and nothing is applied
  /// locally.
  let backEndError: WebcomError?

  /// A client of a back end; `backEndError` tells why that back end cannot be used, if it
  /// cannot.
  init(backEndError: WebcomError? = nil) {
    self.backEndError = backEndError
  }

  /// What the cache holds at a path (null when nothing is known).
  func cachedValue(at path: DatasyncPath) -> JSONValue {
    cache.value(at: path)
  }

  /// The back end's time when the local clock reads `localNow`, as last announced.
  func backEndTime(at localNow: Date) -> Date {
    localNow.addingTimeInterval(clockOffset)
  }

  // MARK: Requests

  /// Applies a write locally (its events at once) and sends it, or queues it while
  /// disconnected. The back end's answer comes as an ``ClientEffect/answer(_:_:)`` with the
  /// returned identifier: the written value, or the back end's error.
  ///
  /// A plain write (set or merge) at, above or below a running transaction's node aborts it.
  /// Server values are estimated with the back end's clock when the local clock reads `now`,
  /// read only for a write that has some. The effects are appended to `effects`.
  mutating func write(
    _ operation: WriteOperation, now: @autoclosure () -> Date, into effects: inout [ClientEffect]
  ) -> RequestIdentifier {
    let identifier = requests.makeIdentifier()
    if let backEndError {
      effects.append(.answer(identifier, .failure(backEndError)))
      return identifier
    }
    runningTransactions.abort(overlapping: operation)
    let change = operation.withServerValuesResolved(now: backEndTime(at: now())) {
      cache.applyLocal($0, identifier: identifier)
    }
    views.events(of: change, cache: cache, into: &effects)
    if views.hasIncompleteViews {
      let pending = cache.pending
      // Only the views this write covers can become complete: an earlier write that covered a
      // view completed it then, and a view made since was complete from the start.
      views.complete(
        atOrBelow: operation.path, where: { pending.replacesWholeValue(at: $0.path) },
        cache: cache, into: &effects)
    }
    if isSending || operation.containsServerValues {
      send(.write(identifier, operation), into: &effects)
    } else {
      // The pending write is this very operation: the outbox refers to it.
      requests.queueWrite(identifier)
    }
    return identifier
  }

  /// Registers a write the back end runs when this client disconnects (at every disconnection
  /// when `repeating`); answered with null or the back end's error.
  mutating func writeOnDisconnection(_ operation: WriteOperation, repeating: Bool) -> (
    RequestIdentifier, [ClientEffect]
  ) {
    request { .writeOnDisconnection($0, operation, repeating: repeating) }
  }

  /// Cancels the disconnection writes registered at or below a path; answered with null.
  mutating func cancelDisconnectionWrites(at path: DatasyncPath) -> (
    RequestIdentifier, [ClientEffect]
  ) {
    request { .cancelDisconnectionWrites($0, path) }
  }

  /// Reads the complete value at a path: answered at once from the cache when it holds complete
  /// data there (see ``hasCompleteData(at:)``), at once with `disconnected` while the connection
  /// is disabled, else by the back end.
  mutating func read(at path: DatasyncPath) -> (RequestIdentifier, [ClientEffect]) {
    let identifier = requests.makeIdentifier()
    if let backEndError { return (identifier, [.answer(identifier, .failure(backEndError))]) }
    if hasCompleteData(at: path) {
      return (identifier, [.answer(identifier, .success(cache.value(at: path)))])
    }
    guard isConnectionEnabled else {
      return (identifier, [.answer(identifier, .failure(Self.disabledReadError(at: path)))])
    }
    requests.awaitRead(identifier, at: path)
    var effects: [ClientEffect] = []
    send(.read(identifier, path), into: &effects)
    return (identifier, effects)
  }

  /// Authenticates the connection with a token; answered by an
  /// ``ClientEffect/answerAuthentication(_:_:)`` with the identity the rules now see, or the back
  /// end's error (`permissionDenied` for an unknown token).
  ///
  /// Once accepted, the token is kept and sent again first after every reconnection, so that
  /// the identity survives disconnections (see ``receive(_:)``). A refused token leaves the
  /// identity as it was.
  ///
  /// Made while disconnected, it waits, in order with the other authentication requests, and
  /// goes once the back end confirms the connection: after the kept token, before the renewed
  /// listens and the other queued requests, which the rules then check as the new identity.
  /// Once sent, it fails with `disconnected` when the connection drops before the answer (the
  /// kept token, if any, is the one sent again); disabling the connection fails it, sent or not.
  mutating func authenticate(token: String) -> (RequestIdentifier, [ClientEffect]) {
    authenticationRequest { .authenticate($0, token: token) }
  }

  /// Makes the connection unauthenticated and forgets the kept token; answered by an
  /// ``ClientEffect/answerAuthentication(_:_:)`` with nil, or failing as ``authenticate(token:)``.
  /// A sign-out that fails because the connection dropped or was disabled still forgets the
  /// token: the connection comes back unauthenticated.
  mutating func signOut() -> (RequestIdentifier, [ClientEffect]) {
    authenticationRequest { .signOut($0) }
  }

  private mutating func authenticationRequest(_ make: (RequestIdentifier) -> ClientRequest) -> (
    RequestIdentifier, [ClientEffect]
  ) {
    let identifier = requests.makeIdentifier()
    if let backEndError {
      return (identifier, [.answerAuthentication(identifier, .failure(backEndError))])
    }
    var effects: [ClientEffect] = []
    requests.sendAuthentication(make(identifier), isConnected: isSending, into: &effects)
    return (identifier, effects)
  }

  /// The answers to the requests still waiting when the client goes away (see
  /// ``RequestLedger/answersAtRelease(of:writePaths:)``).
  func answersAtRelease(of identifiers: some Sequence<RequestIdentifier>) -> [ClientEffect] {
    let writePaths = Dictionary(
      cache.pending.all.map { ($0.identifier, $0.operation.path) },
      uniquingKeysWith: { first, _ in first })
    return requests.answersAtRelease(of: identifiers, writePaths: writePaths)
  }

  // MARK: Transactions

  /// Registers a transaction at a path; returns its token.
  mutating func beginTransaction(at path: DatasyncPath) -> UInt64 {
    let token = requests.makeIdentifier()
    runningTransactions.begin(token, at: path)
    return token
  }

  /// The current value at a transaction's path, and whether a plain write aborted it (true
  /// also once it ended).
  func transactionAttempt(_ token: UInt64) -> (current: JSONValue, isAborted: Bool) {
    guard let path = runningTransactions.path(of: token) else { return (.null, true) }
    return (cache.value(at: path), runningTransactions.isAborted(token))
  }

  mutating func endTransaction(_ token: UInt64) {
    runningTransactions.end(token)
  }

  // MARK: Subscriptions

  /// Registers a subscription on the view of its (path, constraint), listening to the path
  /// when the view is the first there; replays the current data at once when the view is
  /// complete, else as soon as it is (the back end's data arrived, or a local write completed it).
  /// Without `needsPreviousKeys`, its child events may come without the previous child's key.
  mutating func subscribe(
    _ identifier: SubscriptionIdentifier, at path: DatasyncPath,
    constraint: DatasyncChildrenConstraint, eventType: DatasyncEventType,
    needsPreviousKeys: Bool = true
  ) -> [ClientEffect] {
    if let backEndError { return [.revoke([identifier], backEndError)] }
    let subscriber = ClientViews.Subscriber(
      identifier: identifier, eventType: eventType, sequence: requests.makeIdentifier(),
      needsPreviousKeys: needsPreviousKeys)
    let key = ClientViews.Key(path: path, constraint: constraint)
    var effects: [ClientEffect] = []
    var isComplete = false
    if !views.contains(key) {
      isComplete = hasCompleteData(at: path)
      listens[path, default: Listen()].viewCount += 1
      if listens[path]?.viewCount == 1 && state != .disconnected {
        effects.append(.send(.listen(path)))
      }
    }
    let view = views.add(subscriber, to: key, isCompleteIfNew: isComplete)
    if view.isComplete {
      ClientViews.replay(view, to: subscriber, cache: cache, into: &effects)
    }
    return effects
  }

  /// Removes a subscription; the view goes when its last subscription goes, and then the data of
  /// its path is handled according to `policy` (`explicitly` tells how the subscription ended).
  mutating func unsubscribe(
    _ identifier: SubscriptionIdentifier, policy: DatasyncCompletedSubscriptionPolicy,
    explicitly: Bool
  ) -> [ClientEffect] {
    guard let key = views.remove(identifier) else { return [] }
    listens[key.path]?.viewCount -= 1
    guard listens[key.path]?.viewCount == 0 else { return [] }
    var effects: [ClientEffect] = []
    switch policy {
    case .keepUpdatingData,
      .keepUpdatingDataWhenImplicit where !explicitly:
      break
    case .keepData:
      stopListening(key.path, into: &effects)
      keptPaths[key.path] = ()
    case .forgetData, .keepUpdatingDataWhenImplicit:
      stopListening(key.path, into: &effects)
      keptPaths[key.path] = nil
      forget(key.path)
    }
    return effects
  }

  private mutating func stopListening(_ path: DatasyncPath, into effects: inout [ClientEffect]) {
    listens[path] = nil
    if state != .disconnected { effects.append(.send(.unlisten(path))) }
  }

  /// Drops the cached data of a path that no listen keeps up to date any more.
  mutating func forget(_ path: DatasyncPath) {
    guard !isCovered(path), !listens.containsValue(below: path) else { return }
    cache.forget(path)
  }

  // MARK: Connection

  /// Disables the connection (writes keep applying locally and queue; the reads waiting for the
  /// back end are answered from the cache when it holds their complete value, else with
  /// `disconnected`) or enables it again (the queued requests are sent in order once the back
  /// end confirms the connection).
  mutating func setConnectionEnabled(_ enabled: Bool) -> [ClientEffect] {
    guard enabled != isConnectionEnabled else { return [] }
    isConnectionEnabled = enabled
    var effects: [ClientEffect] = [.connect(enabled)]
    if !enabled {
      abandonAuthentications(includingUnsent: true, into: &effects)
      for (identifier, path) in requests.abandonReads() {
        let result: WebcomResult<JSONValue> =
          hasCompleteData(at: path)
          ? .success(cache.value(at: path)) : .failure(Self.disabledReadError(at: path))
        effects.append(.answer(identifier, result))
      }
    }
    // Until the back end confirms the reconnection, requests queue in the outbox so that they
    // keep their order.
    changeState(to: .disconnected, into: &effects)
    return effects
  }

  private static func disabledReadError(at path: DatasyncPath) -> WebcomError {
    WebcomError(
      .disconnected,
      "cannot read \(path.string): the connection is disabled and the cache does not hold the "
        + "complete value (subscribe to the node, or set it, to keep it in the cache)")
  }

  // MARK: Helpers

  /// Changes the identity, telling the observers when it differs.
  mutating func setAuthentication(
    _ identity: DatasyncAuthentication?, into effects: inout [ClientEffect]
  ) {
    guard identity != authentication else { return }
    authentication = identity
    effects.append(.changeAuthentication(identity))
  }

  private mutating func request(_ make: (RequestIdentifier) -> ClientRequest) -> (
    RequestIdentifier, [ClientEffect]
  ) {
    let identifier = requests.makeIdentifier()
    if let backEndError { return (identifier, [.answer(identifier, .failure(backEndError))]) }
    var effects: [ClientEffect] = []
    send(make(identifier), into: &effects)
    return (identifier, effects)
  }

  /// Whether requests go to the back end now rather than to the outbox.
  private var isSending: Bool { state != .disconnected && isConnectionEnabled }

  /// Sends a request now, or queues it until the connection is back.
  private mutating func send(_ request: ClientRequest, into effects: inout [ClientEffect]) {
    requests.send(request, isConnected: isSending, into: &effects)
  }

  mutating func changeState(to state: DatasyncState, into effects: inout [ClientEffect]) {
    guard state != self.state else { return }
    self.state = state
    effects.append(.changeState(state))
  }

  /// Whether the cache holds the complete value at a path: a listen at or above it has brought
  /// the back end's data (and keeps it up to date while connected), or a pending local write
  /// replaces the whole value there (a `set` at or above it, or a `merge` naming the child at or
  /// above it). A merge alone never makes its own node complete.
  private func hasCompleteData(at path: DatasyncPath) -> Bool {
    isCovered(path) || cache.pending.replacesWholeValue(at: path)
  }

  /// Whether a listen at or above a path has brought the back end's complete data.
  private func isCovered(_ path: DatasyncPath) -> Bool {
    var node: DatasyncPath? = path
    while let current = node {
      if listens[current]?.isComplete == true { return true }
      node = current.parent
    }
    return false
  }
}
