extension ClientStateMachine {
  // MARK: Messages from the back end

  /// Whether a change from the back end writes at, above or below a location the client listens
  /// to. A change sent before the back end learnt of an unlisten is dropped, so that the cache
  /// never holds data that nothing keeps up to date.
  private func concernsAListen(_ operation: WriteOperation) -> Bool {
    operation.writtenPaths.contains { listens.containsValue(atOrAround: $0) }
  }

  /// Handles a message of the back end.
  ///
  /// While disconnected, only the start and the end of a connection count: anything else comes
  /// from a connection the application disabled (or that dropped) before its end reached the
  /// client, and describes a session that no longer exists. The effects are appended to
  /// `effects`.
  mutating func receive(_ message: BackEndMessage, into effects: inout [ClientEffect]) {
    switch message {
    case .connected, .disconnected: break
    default: guard state != .disconnected else { return }
    }
    switch message {
    case .connected(let offset):
      guard isConnectionEnabled else { break }
      clockOffset = offset
      // Authentications first, so that the rules check what follows as their identity: the
      // kept token (a connection starts unauthenticated), then those made while disconnected;
      // then the listens, in a stable order, so that the queued requests find them renewed.
      if let token {
        let identifier = requests.makeIdentifier()
        reauthentication = identifier
        effects.append(.send(.authenticate(identifier, token: token)))
      }
      requests.sendQueuedAuthentications(into: &effects)
      for path in listens.paths(atOrBelow: .root).sortedByString() {
        effects.append(.send(.listen(path)))
      }
      requests.sendQueued(pending: cache.pending, into: &effects)
      changeState(to: .connected(clockOffset: offset), into: &effects)
    case .disconnected:
      abandonAuthentications(includingUnsent: false, into: &effects)
      changeState(to: .disconnected, into: &effects)
    case .listenData(let path, let value):
      guard listens[path] != nil else { break }
      views.events(of: cache.applyServer(.set(path, value)), cache: cache, into: &effects)
      listens[path]?.isComplete = true
      views.complete(atOrBelow: path, cache: cache, into: &effects)
    case .changed(let operation):
      guard concernsAListen(operation) else { break }
      views.events(of: cache.applyServer(operation), cache: cache, into: &effects)
    case .changedSharing(let operation, let listen, let value, let replaced):
      // The listen may have ended meanwhile: the write itself then, as for `changed`.
      let shared = listens[listen] != nil ? (listen, value, replaced) : nil
      guard shared != nil || concernsAListen(operation) else { break }
      views.events(of: cache.applyServer(operation, shared: shared), cache: cache, into: &effects)
    case .acknowledged(let identifier, _) where requests.isAwaitingAuthentication(identifier):
      _ = requests.takeAuthentication(identifier)
      token = nil
      setAuthentication(nil, into: &effects)
      effects.append(.answerAuthentication(identifier, .success(nil)))
    case .acknowledged(let identifier, let announced):
      let value: JSONValue
      if case .set(_, let written)? = announced { value = written } else { value = .null }
      acknowledge(identifier, announced: announced, answer: value, into: &effects)
    case .acknowledgedAsChanged(let identifier, let written):
      acknowledge(identifier, announced: nil, answer: written, into: &effects)
    case .rejected(let identifier, _, _) where identifier == reauthentication:
      // The kept token was revoked while disconnected: the back end checks the renewed listens
      // as unauthenticated and revokes those that needed the identity.
      reauthentication = nil
      token = nil
      setAuthentication(nil, into: &effects)
    case .rejected(let identifier, let error, _) where requests.isAwaitingAuthentication(identifier):
      _ = requests.takeAuthentication(identifier)
      effects.append(.answerAuthentication(identifier, .failure(error)))
    case .rejected(let identifier, let error, let current):
      _ = requests.takeRead(identifier)
      if let change = cache.reject(identifier, current: current) {
        views.events(of: change, cache: cache, into: &effects)
      }
      effects.append(.answer(identifier, .failure(error)))
    case .value(let identifier, let value):
      guard let path = requests.takeRead(identifier) else { break }
      views.events(of: cache.applyServer(.set(path, value)), cache: cache, into: &effects)
      effects.append(.answer(identifier, .success(cache.value(at: path))))
      forgetUnkept(path)
    case .revoked(let path, let error):
      revoke(at: path, error: error, into: &effects)
    case .authenticated(let identifier, let identity) where identifier == reauthentication:
      reauthentication = nil
      setAuthentication(identity, into: &effects)
    case .authenticated(let identifier, let identity):
      guard case .authenticate(_, let accepted)? = requests.takeAuthentication(identifier) else {
        break
      }
      token = accepted
      setAuthentication(identity, into: &effects)
      effects.append(.answerAuthentication(identifier, .success(identity)))
    case .authenticationChanged(let identity):
      if identity == nil { token = nil }
      setAuthentication(identity, into: &effects)
    }
  }

  /// Removes an acknowledged write from the pending ones (applying `announced` to the back end's
  /// data), raising the events of what differs and the acknowledgement events, and answers it.
  private mutating func acknowledge(
    _ identifier: RequestIdentifier, announced: WriteOperation?, answer: JSONValue,
    into effects: inout [ClientEffect]
  ) {
    if let (acknowledged, change) = cache.acknowledge(identifier, announced: announced) {
      if let change { views.events(of: change, cache: cache, into: &effects) }
      views.acknowledgements(of: acknowledged, cache: cache, into: &effects)
      acknowledged.forEachFootprint { forgetUnkept($0.path) }
    }
    effects.append(.answer(identifier, .success(answer)))
  }

  /// Drops the back end's data at a path that nothing keeps: no listen (complete or not) and no
  /// data kept by an ended subscription at, above or below it, no running transaction there, and
  /// no pending write overlapping it (the last one's acknowledgement drops it). An acknowledged write or an
  /// answered read leaves nothing behind then, so a client that writes or reads without
  /// listening does not accumulate what it wrote or read.
  private mutating func forgetUnkept(_ path: DatasyncPath) {
    // A client that keeps nothing anywhere (a writer that does not listen, its last write
    // acknowledged) keeps no data at all: dropped whole, without copying the path.
    if cache.pending.isEmpty, listens.isEmpty, keptPaths.isEmpty, runningTransactions.isEmpty {
      return cache.forgetAll()
    }
    guard !cache.pending.overlaps(path), !isListened(atOrAround: path),
      !runningTransactions.overlaps(path)
    else { return }
    cache.forget(path)
  }

  /// Whether a listen, complete or not, or data kept by an ended subscription is at, above or
  /// below a path.
  private func isListened(atOrAround path: DatasyncPath) -> Bool {
    listens.containsValue(atOrAround: path) || keptPaths.containsValue(atOrAround: path)
  }

  /// Fails the authentication requests waiting for the back end (those not sent yet too when
  /// `includingUnsent`), as the connection dropped: it comes back unauthenticated, and is
  /// authenticated again with the kept token on reconnection. A failed sign-out forgets the
  /// token.
  mutating func abandonAuthentications(
    includingUnsent: Bool, into effects: inout [ClientEffect]
  ) {
    reauthentication = nil
    for request in requests.abandonAuthentications(includingUnsent: includingUnsent) {
      guard let identifier = request.identifier else { continue }
      if case .signOut = request {
        token = nil
        setAuthentication(nil, into: &effects)
      }
      let error = WebcomError(
        .disconnected,
        "the connection was lost or disabled before the back end answered the authentication")
      effects.append(.answerAuthentication(identifier, .failure(error)))
    }
  }

  /// Ends the subscriptions at or below a path the back end stopped serving, and drops the data
  /// no listen keeps up to date any more.
  private mutating func revoke(
    at path: DatasyncPath, error: WebcomError, into effects: inout [ClientEffect]
  ) {
    let revoked = views.removeViews(atOrBelow: path)
    for listened in listens.paths(atOrBelow: path) {
      listens[listened] = nil
    }
    forget(path)
    if !revoked.isEmpty { effects.append(.revoke(revoked, error)) }
  }
}
