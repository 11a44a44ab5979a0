import Dispatch
import Synchronization

/// The whole connection of a client of this project served over a network (the session
/// protocol, see ``SessionProtocol``): its listens, writes, reads, disconnection operations and
/// authentication, and the back end's messages to it in order, as ``HostedEvent``s.
///
/// A session is a client of the back end under an identity object that outlives it: a client
/// that reconnects gets a new session under the same identity, so the disconnection operations it
/// registered to run at every disconnection stay registered. ``close()`` disconnects it (its
/// disconnection operations run).
///
/// **Credentials.** The session starts with the token its stream was opened with (if any) and
/// changes it through `authenticate` and `signOut` requests; ``token`` is the one it stands for
/// now (nil once revoked), which requests must present.
package final class HostedSession: Sendable {
  private struct Credentials {
    var token: String?
    var identity: DatasyncAuthentication?
    /// The tokens of `authenticate` requests awaiting their answer, by request identifier.
    var pendingTokens: [WriteIdentifier: String] = [:]
    /// The identifiers of `signOut` requests awaiting their answer.
    var pendingSignOuts: Set<WriteIdentifier> = []
    var isClosed = false
  }

  /// The identifier of the authentication a session makes with the token of its stream.
  package static let streamAuthenticationRequest: UInt64 = 0

  private let database: DatasyncDatabase
  private let identifier: ObjectIdentifier
  private let clientID: String
  private let queue: DispatchQueue
  private let send: @Sendable (HostedEvent) -> Void
  private let credentials = Mutex(Credentials())

  /// Creates a session; ``start(token:)`` connects it.
  ///
  /// - Parameters:
  ///   - database: The back end.
  ///   - identity: The object that identifies the client to the back end (the same for each of
  ///     its sessions).
  ///   - clientID: The client's identifier, sent in the `connected` event.
  ///   - send: Called with each event, in order, one at a time.
  package init(
    database: DatasyncDatabase, identity: AnyObject, clientID: String,
    send: @escaping @Sendable (HostedEvent) -> Void
  ) {
    self.database = database
    identifier = ObjectIdentifier(identity)
    self.clientID = clientID
    self.send = send
    queue = DispatchQueue(label: "datasync.hosted-session", target: .global())
  }

  /// The token the session is authenticated with, nil when unauthenticated.
  package var token: String? { credentials.withLock { $0.token } }

  /// The identity the session is authenticated as, nil when unauthenticated.
  package var identity: DatasyncAuthentication? { credentials.withLock { $0.identity } }

  /// Connects to the back end (the `connected` event comes first) and authenticates with
  /// `token` if given (answered by an `auth` or `reject` event of identifier 0).
  package func start(token: String?) {
    database.attach(identifier) { [self] message in
      // Called under the back end's lock: record, then hand over to the queue.
      record(message)
      queue.async { [self] in
        guard !credentials.withLock({ $0.isClosed }),
          let event = SessionProtocol.event(for: message, client: clientID)
        else { return }
        send(event)
      }
    }
    if let token {
      perform([.authenticate(Self.streamAuthenticationRequest, token: token)])
    }
  }

  /// Handles the requests of a `POST` body, in order; their answers come as events.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` (or the code of an invalid path, key
  ///   or value) for a body that is not valid requests: none of them is handled then.
  package func perform(body: [UInt8]) throws(WebcomError) {
    perform(try SessionProtocol.requests(fromBody: body))
  }

  private func perform(_ requests: [ClientRequest]) {
    for request in requests {
      credentials.withLock { credentials in
        switch request {
        case .authenticate(let identifier, let token): credentials.pendingTokens[identifier] = token
        case .signOut(let identifier): credentials.pendingSignOuts.insert(identifier)
        default: break
        }
      }
      database.handle(request, from: identifier)
    }
  }

  /// Disconnects the session from the back end (its disconnection operations run); nothing is
  /// sent afterwards. Returns once disconnected.
  package func close() {
    let wasClosed = credentials.withLock { credentials in
      defer { credentials.isClosed = true }
      return credentials.isClosed
    }
    if !wasClosed { database.detach(identifier) }
  }

  /// Keeps the credentials up to date with the back end's answers, as they are delivered.
  private func record(_ message: BackEndMessage) {
    credentials.withLock { credentials in
      switch message {
      case .authenticated(let request, let identity):
        if let token = credentials.pendingTokens.removeValue(forKey: request) {
          credentials.token = token
          credentials.identity = identity
        }
      case .rejected(let request, _, _):
        credentials.pendingTokens[request] = nil
        credentials.pendingSignOuts.remove(request)
      case .acknowledged(let request, _):
        if credentials.pendingSignOuts.remove(request) != nil {
          credentials.token = nil
          credentials.identity = nil
        }
      case .authenticationChanged(let identity):
        credentials.identity = identity
        if identity == nil { credentials.token = nil }
      default:
        break
      }
    }
  }
}
