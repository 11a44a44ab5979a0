import Foundation

/// The client of one ``DatasyncService``: its ``ClientStateMachine`` behind a mutex, and the
/// effects of each operation performed.
///
/// Every entry point locks, runs one operation of the state machine and performs the effects it
/// returns, in order:
/// - the effects that only enqueue — event batches (one per subscribers' queue and operation,
///   through its ``DeliveryMailbox``),
///   requests and connection changes (on the connection, which never calls back from inside) —
///   inside the critical section, so that the effects of two concurrent operations keep the order
///   of their state changes: every subscriber gets its events, and the back end the requests, in
///   the order the state changed;
/// - the call-outs — answers to requests (authentication included), state and authentication
///   observers, revoked subscriptions — after unlocking, as they may run code of the
///   application, which may call the client again;
/// - then the connection's ``BackEndConnection/flush()``, which lets the requests travel (the
///   embedded back end handles them there, on the calling thread).
final class DatasyncClient: Sendable {
  /// The answer to a request: the written value for writes, the value for reads.
  typealias Answer = @Sendable (WebcomResult<JSONValue>) -> Void

  /// The answer to an authentication request: the identity, nil after a sign-out.
  typealias AuthenticationAnswer = @Sendable (WebcomResult<DatasyncAuthentication?>) -> Void
  typealias StateObserver = @Sendable (DatasyncState) -> Void
  typealias AuthenticationObserver = @Sendable (AuthenticationState) -> Void

  /// What the mutex protects.
  private struct Guarded {
    var machine: ClientStateMachine
    /// The callbacks of the requests waiting for an answer.
    var answers = WaitingAnswers()
    var authenticationAnswers: [RequestIdentifier: AuthenticationAnswer] = [:]
    /// The registered subscriptions, which the state machine names by identifier.
    var subscriptions: [SubscriptionIdentifier: SubscriptionCore] = [:]
    var stateObservers = ObserverRegistry<StateObserver>()
    var authenticationObservers = ObserverRegistry<AuthenticationObserver>()
    /// The array the next operation gathers its effects in: emptied once they are performed,
    /// its storage kept (up to ``DatasyncClient/keptEffectCapacity``), so that an operation
    /// allocates no array of effects.
    var spareEffects: [ClientEffect] = []
  }

  /// The capacity up to which the array of effects is kept for the next operation.
  private static let keptEffectCapacity = 16

  /// A call made after unlocking.
  private enum Callout: Sendable {
    case answer(WaitingAnswer, WebcomResult<JSONValue>)
    case answerAuthentication(AuthenticationAnswer, WebcomResult<DatasyncAuthentication?>)
    case changeState([StateObserver], DatasyncState)
    case changeAuthentication([AuthenticationObserver], AuthenticationState)
    case revoke([SubscriptionCore], WebcomError)
  }

  private let connection: BackEndConnection
  private let guarded: LockedValue<Guarded>

  /// A client of the back end behind `connection`; when the connection has a
  /// ``BackEndConnection/configurationError``, every request and subscription fails with it.
  init(connection: BackEndConnection) {
    self.connection = connection
    guarded = LockedValue(
      Guarded(machine: ClientStateMachine(backEndError: connection.configurationError)))
    connection.open { [weak self] messages in self?.receive(messages) }
  }

  /// Closes the connection and answers the requests still waiting, as nothing else will (see
  /// ``ClientStateMachine/answersAtRelease(of:)``).
  deinit {
    connection.close()
    let (callouts, deliveries) = guarded.withLock { guarded in
      let waiting = guarded.answers.identifiers + Array(guarded.authenticationAnswers.keys)
      var effects = guarded.machine.answersAtRelease(of: waiting)
      return perform(&effects, on: &guarded)
    }
    run(callouts, kicking: deliveries)
  }

  // MARK: Reading

  /// The back end's current time as estimated by this client.
  var backEndNow: Date {
    let now = Date()
    return guarded.withLock { $0.machine.backEndTime(at: now) }
  }

  /// What the cache holds at a path (null when nothing is known).
  func cachedValue(at path: DatasyncPath) -> JSONValue {
    guarded.withLock { $0.machine.cachedValue(at: path) }
  }

  /// The complete value at a path (see ``ClientStateMachine/read(at:)``).
  func read(at path: DatasyncPath, answer: @escaping Answer) {
    update { guarded in
      let (identifier, effects) = guarded.machine.read(at: path)
      guarded.answers.insert(.value(answer), for: identifier)
      return effects
    }
  }

  // MARK: Writing

  /// Applies a write locally (raising its events at once) and sends it to the back end; `answer`
  /// gets the written value or the back end's error.
  ///
  /// - Throws: ``WebcomError`` (`invalidPath`, `invalidValue`) when a written path would exceed
  ///   the limits of paths; nothing is applied nor sent.
  func write(_ operation: WriteOperation, answer: WaitingAnswer?) throws(WebcomError) {
    try operation.checkLimits()
    update { guarded, effects in
      let identifier = guarded.machine.write(operation, now: Date(), into: &effects)
      if let answer { guarded.answers.insert(answer, for: identifier) }
    }
  }

  /// Registers a write the back end runs when this client disconnects.
  ///
  /// - Throws: as ``write(_:answer:)``; nothing is sent.
  func writeOnDisconnection(_ operation: WriteOperation, repeating: Bool, answer: WaitingAnswer?)
    throws(WebcomError)
  {
    try operation.checkLimits()
    request(answer: answer) { $0.writeOnDisconnection(operation, repeating: repeating) }
  }

  /// Cancels the disconnection writes registered at (or below) a path.
  func cancelDisconnectionWrites(at path: DatasyncPath, answer: WaitingAnswer?) {
    request(answer: answer) { $0.cancelDisconnectionWrites(at: path) }
  }

  /// Runs a transaction: `compute` maps the current value to the new one (nil aborts); the write
  /// is a compare-and-set at the back end, re-run with the newer value on conflict (see
  /// ``TransactionRetries``). A plain write (set or merge) at, above or below the path aborts
  /// it: it completes with `committed == false` unless its compare-and-set, already sent,
  /// succeeds.
  func transaction(
    at path: DatasyncPath,
    compute: @escaping @Sendable (JSONValue) -> WebcomResult<JSONValue?>,
    completion: @escaping @Sendable (TransactionRetries.Outcome) -> Void
  ) {
    let token = guarded.withLock { $0.machine.beginTransaction(at: path) }
    runTransactionAttempt(token, TransactionRetries(path: path), compute: compute) {
      [weak self] outcome in
      self?.guarded.withLock { $0.machine.endTransaction(token) }
      completion(outcome)
    }
  }

  private func runTransactionAttempt(
    _ token: UInt64, _ retries: TransactionRetries,
    compute: @escaping @Sendable (JSONValue) -> WebcomResult<JSONValue?>,
    completion: @escaping @Sendable (TransactionRetries.Outcome) -> Void
  ) {
    let answer: Answer = { [weak self] result in
      var retries = retries
      switch retries.decide(after: result) {
      case .finish(let outcome):
        completion(outcome)
      case .retry:
        // Answers come from this client's own calls, while it is alive.
        self?.runTransactionAttempt(token, retries, compute: compute, completion: completion)
      }
    }
    while true {
      let (current, isAborted) = guarded.withLock { $0.machine.transactionAttempt(token) }
      let operation: WriteOperation
      switch retries.start(current: current, isAborted: isAborted, compute: compute) {
      case .finish(let outcome): return completion(outcome)
      case .write(let value):
        operation = .compareAndSet(retries.path, expected: current, value: value)
      }
      do throws(WebcomError) {
        try operation.checkLimits()
      } catch {
        return completion(.failure(error))
      }
      if sendUnlessChanged(operation, token: token, read: current, answer: answer) { return }
    }
  }

  /// Sends a transaction's compare-and-set unless another write of this client changed the
  /// value (or aborted the transaction) since `compute` read it: computing again then costs no
  /// round trip and no attempt, so a client's own concurrent transactions never conflict at the
  /// back end. Returns whether it was sent.
  private func sendUnlessChanged(
    _ operation: WriteOperation, token: UInt64, read: JSONValue, answer: @escaping Answer
  ) -> Bool {
    var isSent = false
    update { guarded, effects in
      let attempt = guarded.machine.transactionAttempt(token)
      guard !attempt.isAborted, attempt.current == read else { return }
      let identifier = guarded.machine.write(operation, now: Date(), into: &effects)
      guarded.answers.insert(.value(answer), for: identifier)
      isSent = true
    }
    return isSent
  }

  // MARK: Authentication

  /// The identity the back end gave the token the client authenticated with, kept across
  /// disconnections; nil when unauthenticated (see ``ClientStateMachine/authentication``).
  var authentication: DatasyncAuthentication? { guarded.withLock { $0.machine.authentication } }

  /// Calls `observer` on every change of the identity; returns a token for
  /// ``removeAuthenticationObserver(_:)``.
  func addAuthenticationObserver(_ observer: @escaping AuthenticationObserver) -> UInt64 {
    guarded.withLock { $0.authenticationObservers.add(observer) }
  }

  func removeAuthenticationObserver(_ token: UInt64) {
    guarded.withLock { $0.authenticationObservers.remove(token) }
  }

  /// Authenticates the connection with a token, after the requests already sent (see
  /// ``ClientStateMachine/authenticate(token:)``); `answer` gets the identity the rules now see.
  func authenticate(withToken token: String, answer: @escaping AuthenticationAnswer) {
    authenticationRequest(answer: answer) { $0.authenticate(token: token) }
  }

  /// Makes the connection unauthenticated, after the requests already sent; `answer` gets nil
  /// once the back end has done it.
  func signOut(answer: @escaping AuthenticationAnswer) {
    authenticationRequest(answer: answer) { $0.signOut() }
  }

  private func authenticationRequest(
    answer: @escaping AuthenticationAnswer,
    _ operation: (inout ClientStateMachine) -> (RequestIdentifier, [ClientEffect])
  ) {
    update { guarded in
      let (identifier, effects) = operation(&guarded.machine)
      guarded.authenticationAnswers[identifier] = answer
      return effects
    }
  }

  // MARK: Subscribing

  /// Registers a subscription (see ``ClientStateMachine/subscribe(_:at:constraint:eventType:)``).
  func subscribe(_ subscription: SubscriptionCore) {
    update { guarded in
      guarded.subscriptions[subscription.identifier] = subscription
      return guarded.machine.subscribe(
        subscription.identifier, at: subscription.path, constraint: subscription.constraint,
        eventType: subscription.eventType,
        needsPreviousKeys: subscription.conflation.carriesPreviousKeys)
    }
  }

  /// Removes a subscription (see ``ClientStateMachine/unsubscribe(_:policy:explicitly:)``).
  func unsubscribe(
    _ subscription: SubscriptionCore, policy: DatasyncCompletedSubscriptionPolicy,
    explicitly: Bool
  ) {
    update { guarded in
      guarded.subscriptions[subscription.identifier] = nil
      return guarded.machine.unsubscribe(
        subscription.identifier, policy: policy, explicitly: explicitly)
    }
  }

  // MARK: Connection

  var state: DatasyncState { guarded.withLock { $0.machine.state } }

  var isConnectionEnabled: Bool { guarded.withLock { $0.machine.isConnectionEnabled } }

  /// Disconnects or reconnects (see ``ClientStateMachine/setConnectionEnabled(_:)``).
  func setConnectionEnabled(_ enabled: Bool) {
    update { $0.machine.setConnectionEnabled(enabled) }
  }

  /// Calls `observer` on every change of the connection state; returns a token for
  /// ``removeStateObserver(_:)``.
  func addStateObserver(_ observer: @escaping StateObserver) -> UInt64 {
    guarded.withLock { $0.stateObservers.add(observer) }
  }

  func removeStateObserver(_ token: UInt64) {
    guarded.withLock { $0.stateObservers.remove(token) }
  }

  /// Handles messages of the back end, in order, as one operation: their effects are performed
  /// in order once the last one is handled (an answer still follows the events of its change).
  private func receive(_ messages: [BackEndMessage]) {
    update { guarded, effects in
      for message in messages { guarded.machine.receive(message, into: &effects) }
    }
  }

  // MARK: Performing effects

  /// Runs a request of the state machine, registering its answer.
  private func request(
    answer: WaitingAnswer?,
    _ operation: (inout ClientStateMachine) -> (RequestIdentifier, [ClientEffect])
  ) {
    update { guarded in
      let (identifier, effects) = operation(&guarded.machine)
      if let answer { guarded.answers.insert(answer, for: identifier) }
      return effects
    }
  }

  /// Changes the guarded state under the mutex, performs the effects, then flushes the
  /// connection. The queues that got events are woken after the flush (where the embedded back
  /// end answers: a write's local events and acknowledgement reach their queue in one batch), or
  /// before the call-outs if any, so that an answer never overtakes the events of its change.
  private func update(_ change: (inout Guarded) -> [ClientEffect]) {
    update { guarded, effects in effects = change(&guarded) }
  }

  /// ``update(_:)`` for an operation that appends its effects to the array it is given.
  private func update(_ change: (inout Guarded, inout [ClientEffect]) -> Void) {
    let (callouts, deliveries) = guarded.withLock { guarded in
      var effects: [ClientEffect] = []
      swap(&effects, &guarded.spareEffects)
      change(&guarded, &effects)
      let performed = perform(&effects, on: &guarded)
      if effects.capacity <= Self.keptEffectCapacity { swap(&effects, &guarded.spareEffects) }
      return performed
    }
    if callouts.isEmpty {
      connection.flush()
      deliveries.kick()
    } else {
      run(callouts, kicking: deliveries)
      connection.flush()
    }
  }

  /// Performs the effects that only enqueue, in order, and returns the call-outs of the others,
  /// in order, and the event batches posted (to kick). The effects are removed from `effects`
  /// as they are performed (see `Array.removeEach(_:)`). Called with the mutex held.
  private func perform(_ effects: inout [ClientEffect], on guarded: inout Guarded) -> (
    callouts: [Callout], deliveries: DeliveryBatches
  ) {
    var callouts: [Callout] = []
    var deliveries = DeliveryBatches()
    effects.removeEach { effect in
      switch effect {
      case .deliver(let records, let identifier):
        if let subscription = guarded.subscriptions[identifier] {
          deliveries.add(records, for: subscription)
        }
      case .send(let request):
        connection.send(request)
      case .connect(let connected):
        connection.setConnected(connected)
      case .answer(let identifier, let result):
        if let answer = guarded.answers.remove(identifier) {
          callouts.append(.answer(answer, result))
        }
      case .answerAuthentication(let identifier, let result):
        if let answer = guarded.authenticationAnswers.removeValue(forKey: identifier) {
          callouts.append(.answerAuthentication(answer, result))
        }
      case .changeState(let state):
        let observers = guarded.stateObservers.inOrder
        callouts.append(.changeState(observers, state))
      case .changeAuthentication(let identity):
        let observers = guarded.authenticationObservers.inOrder
        callouts.append(.changeAuthentication(observers, AuthenticationState(identity)))
      case .revoke(let identifiers, let error):
        let revoked = identifiers.compactMap { guarded.subscriptions.removeValue(forKey: $0) }
        callouts.append(.revoke(revoked, error))
      }
    }
    deliveries.post()
    return (callouts, deliveries)
  }

  /// Kicks the mailboxes of the event batches, then makes the call-outs.
  private func run(_ callouts: [Callout], kicking deliveries: DeliveryBatches) {
    deliveries.kick()
    for callout in callouts {
      switch callout {
      case .answer(let answer, let result):
        answer(result)
      case .answerAuthentication(let answer, let result):
        answer(result)
      case .changeState(let observers, let state):
        for observer in observers { observer(state) }
      case .changeAuthentication(let observers, let state):
        for observer in observers { observer(state) }
      case .revoke(let subscriptions, let error):
        for subscription in subscriptions where subscription.complete(.revoked(error)) {
          subscription.detachFromManager()
        }
      }
    }
  }
}
