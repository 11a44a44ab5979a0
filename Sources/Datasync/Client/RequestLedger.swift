/// The requests of a client that wait: those made while disconnected, to send in order on
/// reconnection (the outbox), and the reads and authentication requests sent to the back end and
/// not answered yet.
struct RequestLedger {
  /// A request of the outbox other than a queued pending write, with the number of pending
  /// writes queued before it, which orders it among them.
  private struct QueuedRequest {
    let writesBefore: Int
    let request: ClientRequest
  }

  /// The identifiers of the writes queued while disconnected whose operation, as the pending
  /// writes hold it, is the one to send: the outbox refers to them instead of holding a second
  /// copy of each write (see ``queueWrite(_:)``).
  private var queuedWrites: [RequestIdentifier] = []
  /// The other requests of the outbox, in order.
  private var outbox: [QueuedRequest] = []
  private var readPaths: [RequestIdentifier: DatasyncPath] = [:]
  /// The authentication and sign-out requests not answered yet, sent or not.
  private var authentications: [RequestIdentifier: ClientRequest] = [:]
  /// The authentication and sign-out requests made while disconnected, to send first on
  /// reconnection.
  private var authenticationOutbox: [ClientRequest] = []
  private var nextIdentifier: UInt64 = 1

  /// A new identifier, for a request or anything else the client numbers.
  mutating func makeIdentifier() -> UInt64 {
    defer { nextIdentifier += 1 }
    return nextIdentifier
  }

  /// Sends a request now when `isConnected`, else queues it until the connection is back.
  mutating func send(
    _ request: ClientRequest, isConnected: Bool, into effects: inout [ClientEffect]
  ) {
    if isConnected {
      effects.append(.send(request))
    } else {
      outbox.append(QueuedRequest(writesBefore: queuedWrites.count, request: request))
    }
  }

  /// Queues, until the connection is back, the write of this identifier as the pending writes
  /// hold it: its operation is taken from them when it is sent (see
  /// ``sendQueued(pending:into:)``). Only for a write whose operation as sent is the one applied
  /// locally (no server value to resolve), made after every queued request.
  mutating func queueWrite(_ identifier: RequestIdentifier) {
    queuedWrites.append(identifier)
  }

  /// Sends the queued requests, in order, taking the operations of the queued writes from
  /// `pending` (both in increasing identifier order, so one pass over each finds them); a queued
  /// write no longer pending is not sent.
  mutating func sendQueued(pending: PendingWrites, into effects: inout [ClientEffect]) {
    let writes = pending.all
    var writeIndex = writes.startIndex
    var sentWrites = 0
    func sendWrites(upTo end: Int) {
      while sentWrites < end {
        let identifier = queuedWrites[sentWrites]
        sentWrites += 1
        while writeIndex < writes.endIndex && writes[writeIndex].identifier < identifier {
          writeIndex += 1
        }
        if writeIndex < writes.endIndex && writes[writeIndex].identifier == identifier {
          effects.append(.send(.write(identifier, writes[writeIndex].operation)))
        }
      }
    }
    for queued in outbox {
      sendWrites(upTo: queued.writesBefore)
      effects.append(.send(queued.request))
    }
    sendWrites(upTo: queuedWrites.count)
    outbox = []
    queuedWrites = []
  }

  /// Notes a read that waits for the back end's answer.
  mutating func awaitRead(_ identifier: RequestIdentifier, at path: DatasyncPath) {
    readPaths[identifier] = path
  }

  /// Takes the path of a read answered by the back end; nil when it no longer waits for it.
  mutating func takeRead(_ identifier: RequestIdentifier) -> DatasyncPath? {
    readPaths.removeValue(forKey: identifier)
  }

  /// Sends an authentication or sign-out request now when `isConnected`, else queues it to go
  /// first on reconnection; notes that it waits for the back end's answer.
  mutating func sendAuthentication(
    _ request: ClientRequest, isConnected: Bool, into effects: inout [ClientEffect]
  ) {
    guard let identifier = request.identifier else { return }
    authentications[identifier] = request
    if isConnected {
      effects.append(.send(request))
    } else {
      authenticationOutbox.append(request)
    }
  }

  /// Sends the queued authentication and sign-out requests, in order.
  mutating func sendQueuedAuthentications(into effects: inout [ClientEffect]) {
    for request in authenticationOutbox { effects.append(.send(request)) }
    authenticationOutbox = []
  }

  /// Whether the identifier is an authentication or sign-out request still waiting.
  func isAwaitingAuthentication(_ identifier: RequestIdentifier) -> Bool {
    !authentications.isEmpty && authentications[identifier] != nil
  }

  /// The authentication or sign-out request of this identifier when it is still waiting, nil
  /// otherwise; it no longer waits after this call.
  mutating func takeAuthentication(_ identifier: RequestIdentifier) -> ClientRequest? {
    authentications.isEmpty ? nil : authentications.removeValue(forKey: identifier)
  }

  /// Stops waiting for the authentication and sign-out requests already sent (all of them,
  /// the queued ones included, when `includingUnsent`); returns them in order.
  mutating func abandonAuthentications(includingUnsent: Bool) -> [ClientRequest] {
    guard !authentications.isEmpty else { return [] }
    var abandoned = authentications
    if includingUnsent {
      authenticationOutbox = []
    } else {
      for identifier in authenticationOutbox.compactMap(\.identifier) {
        abandoned[identifier] = nil
      }
    }
    for identifier in abandoned.keys { authentications[identifier] = nil }
    return abandoned.sorted { $0.key < $1.key }.map(\.value)
  }

  /// Stops waiting for every read (unsent reads leave the outbox); returns them by identifier.
  mutating func abandonReads() -> [(identifier: RequestIdentifier, path: DatasyncPath)] {
    guard !readPaths.isEmpty else { return [] }
    let abandoned = readPaths.sorted { $0.key < $1.key }
    readPaths = [:]
    outbox.removeAll { queued in
      if case .read = queued.request { return true }
      return false
    }
    return abandoned.map { ($0.key, $0.value) }
  }

  /// The answers to the requests still waiting when the client goes away, by increasing
  /// identifier: those never sent fail with `writeCancelled` (a write, a disconnection write or
  /// a cancellation: not applied) or `disconnected` (a read, an authentication); those sent fail
  /// with `disconnected` (a write may have been applied). `writePaths` gives the paths of the
  /// pending writes.
  func answersAtRelease(
    of identifiers: some Sequence<RequestIdentifier>,
    writePaths: [RequestIdentifier: DatasyncPath]
  ) -> [ClientEffect] {
    var unsent: [RequestIdentifier: ClientRequest] = [:]
    for request in authenticationOutbox + outbox.map(\.request) {
      if let identifier = request.identifier { unsent[identifier] = request }
    }
    let unsentWrites = Set(queuedWrites)
    return identifiers.sorted().map { identifier in
      let error: WebcomError
      if let request = unsent[identifier] {
        error = Self.unsentRequestError(request)
      } else if unsentWrites.contains(identifier) {
        error = Self.unsentWriteError(to: writePaths[identifier])
      } else if authentications[identifier] != nil {
        return .answerAuthentication(
          identifier,
          .failure(
            WebcomError(
              .disconnected,
              "the service was released before the back end answered the authentication")))
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
      return .answer(identifier, .failure(error))
    }
  }

  private static let unsentReason = "the service was released before it was sent to the back end"

  /// The error of a write never sent because the client went away first.
  private static func unsentWriteError(to path: DatasyncPath?) -> WebcomError {
    let subject = path.map { "the write to \($0.string)" } ?? "a write"
    return WebcomError(.writeCancelled, "\(subject) was not applied: \(unsentReason)")
  }

  /// The error of a request never sent because the client went away first.
  private static func unsentRequestError(_ request: ClientRequest) -> WebcomError {
    let reason = unsentReason
    switch request {
    case .read(_, let path):
      return WebcomError(.disconnected, "cannot read \(path.string): \(reason)")
    case .write(_, let operation), .writeOnDisconnection(_, let operation, _):
      return unsentWriteError(to: operation.path)
    case .cancelDisconnectionWrites(_, let path):
      return WebcomError(
        .writeCancelled,
        "the disconnection writes at \(path.string) were not cancelled: \(reason)")
    case .listen, .unlisten, .authenticate, .signOut:
      return WebcomError(.disconnected, reason)
    }
  }
}
