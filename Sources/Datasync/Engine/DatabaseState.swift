import Foundation

/// The state of a ``DatasyncDatabase``: its tree, its rules, its tokens and its connected clients.
///
/// It has no lock of its own: the database's lock protects it. Messages go to clients through
/// their `deliver` closures, which only enqueue (they never run client code), so that calling
/// them here, in the order of the changes, gives every client the changes in the order they were
/// applied.
struct DatabaseState {
  /// One connected client as the back end knows it.
  struct Session {
    /// The paths the client listens to, each one readable when it was last checked.
    var listens: Set<DatasyncPath> = []
    /// The token the client authenticated with, nil when unauthenticated.
    var token: String?
    /// The identity the rules see as `auth`, nil when unauthenticated.
    var auth: DatasyncAuthentication?
    /// Whether the client shares the back end's storage (in the same process): the writes it
    /// listens to come with the new value of its listen (``BackEndMessage/changedSharing(_:listen:value:)``).
    let sharesTree: Bool
    let deliver: @Sendable (BackEndMessage) -> Void
  }

  /// A write a client registered for its disconnection.
  struct DisconnectionWrite {
    let operation: WriteOperation
    let repeating: Bool
    /// The token of the registering client when it registered: the write runs as the identity
    /// this token stands for then (unauthenticated if it was revoked meanwhile).
    let token: String?
  }

  /// The authoritative tree.
  private(set) var root: JSONValue
  /// The rules every read and write of a client is checked against.
  private(set) var rules: DatasyncRules
  /// The identity each known token stands for.
  var tokens: [String: DatasyncAuthentication]
  var sessions: [ObjectIdentifier: Session] = [:]
  private var disconnectionWrites: [ObjectIdentifier: [DisconnectionWrite]] = [:]
  /// Every client's listens, to find those a write touches.
  private var listenIndex = ListenIndex()
  /// The file every applied write is committed to before it is acknowledged; nil in memory.
  let store: DurableTreeStore?

  init(
    rules: DatasyncRules, tokens: [String: DatasyncAuthentication], root: JSONValue = .null,
    store: DurableTreeStore? = nil
  ) {
    self.rules = rules
    self.tokens = tokens
    self.root = root
    self.store = store
  }

  // MARK: Connections

  /// Connects a client: from now on it receives messages through `deliver`, unauthenticated;
  /// with `sharesTree`, the writes it listens to come with the new value of its listen.
  mutating func attach(
    _ client: ObjectIdentifier, sharesTree: Bool = false,
    deliver: @escaping @Sendable (BackEndMessage) -> Void, clockOffset: TimeInterval
  ) {
    sessions[client] = Session(sharesTree: sharesTree, deliver: deliver)
    deliver(.connected(clockOffset: clockOffset))
  }

  /// Disconnects a client: its listens and its authentication are dropped, and its disconnection
  /// writes run, each checked again against the rules (a refused one is dropped).
  mutating func detach(_ client: ObjectIdentifier, now: Date) {
    guard let session = sessions.removeValue(forKey: client) else { return }
    for path in session.listens { listenIndex.remove(path, for: client) }
    let writes = disconnectionWrites[client] ?? []
    let kept = writes.filter(\.repeating)
    disconnectionWrites[client] = kept.isEmpty ? nil : kept
    for write in writes {
      let auth = write.token.flatMap { tokens[$0] }
      let resolved = write.operation.resolvingServerValues(now: now)
      guard
        let (tree, announced, replaced) = try? authorizedApplication(
          of: resolved, auth: auth, now: now),
        (try? persist(announced, in: tree)) != nil
      else { continue }
      commit(tree, announcing: announced, replacing: replaced, except: nil)
    }
    session.deliver(.disconnected)
  }

  // MARK: Requests

  /// Handles one request of a connected client; requests of detached clients are ignored.
  mutating func handle(_ request: ClientRequest, from client: ObjectIdentifier, now: Date) {
    guard let session = sessions[client] else { return }
    switch request {
    case .listen(let path):
      if let denied = rules.checkRead(path, auth: session.auth, root: root, now: now) {
        revoke(path, of: client, error: denied)
      } else {
        sessions[client]?.listens.insert(path)
        listenIndex.insert(path, for: client)
        session.deliver(.listenData(path, root.value(at: path.keys)))
      }
    case .unlisten(let path):
      if sessions[client]?.listens.remove(path) != nil { listenIndex.remove(path, for: client) }
    case .read(let identifier, let path):
      if let denied = rules.checkRead(path, auth: session.auth, root: root, now: now) {
        session.deliver(.rejected(identifier, denied, current: nil))
      } else {
        session.deliver(.value(identifier, root.value(at: path.keys)))
      }
    case .write(let identifier, let operation):
      do throws(WebcomError) {
        try operation.checkLimits()
        try operation.withServerValuesResolved(now: now) { (resolved) throws(WebcomError) in
          try write(resolved, as: identifier, from: client, session: session, now: now)
        }
      } catch {
        session.deliver(
          .rejected(
            identifier, error,
            current: readableValue(at: operation.path, auth: session.auth, now: now)))
      }
    case .writeOnDisconnection(let identifier, let operation, let repeating):
      do throws(WebcomError) {
        try operation.checkLimits()
        try authorizeRegistration(of: operation, auth: session.auth, now: now)
      } catch {
        session.deliver(.rejected(identifier, error, current: nil))
        return
      }
      let write = DisconnectionWrite(
        operation: operation, repeating: repeating, token: session.token)
      disconnectionWrites[client, default: []].append(write)
      session.deliver(.acknowledged(identifier, announced: nil))
    case .cancelDisconnectionWrites(let identifier, let path):
      disconnectionWrites[client]?.removeAll { path.isAncestorOrSelf(of: $0.operation.path) }
      session.deliver(.acknowledged(identifier, announced: nil))
    case .authenticate(let identifier, let token):
      guard let auth = tokens[token] else {
        session.deliver(
          .rejected(
            identifier,
            WebcomError(
              .permissionDenied, "authentication failed: the token is unknown or was revoked"),
            current: nil))
        return
      }
      sessions[client]?.token = token
      sessions[client]?.auth = auth
      session.deliver(.authenticated(identifier, auth))
      if session.auth != auth { recheckListens(of: client, now: now) }
    case .signOut(let identifier):
      sessions[client]?.token = nil
      sessions[client]?.auth = nil
      session.deliver(.acknowledged(identifier, announced: nil))
      if session.auth != nil { recheckListens(of: client, now: now) }
    }
  }

  /// Applies the write of `client` (its server values resolved) if the rules allow it, commits
  /// and stores it, and acknowledges it to the client.
  ///
  /// - Throws: the write's or the rules' error; nothing is changed then.
  private mutating func write(
    _ operation: WriteOperation, as identifier: RequestIdentifier, from client: ObjectIdentifier,
    session: Session, now: Date
  ) throws(WebcomError) {
    let (tree, announced, replaced) = try authorizedApplication(
      of: operation, auth: session.auth, now: now)
    try persist(announced, in: tree)
    commit(tree, announcing: announced, replacing: replaced, except: client)
    session.deliver(
      .acknowledged(
        identifier,
        announced: acknowledgement(of: operation, announced: announced, to: session, now: now)))
  }

  /// Replaces the tree with the result of a write and announces the write to every client
  /// listening where it writes, but its writer: O(depth + listens touched). `replaced` is the
  /// value a set announced replaced, for the clients that share the tree.
  private mutating func commit(
    _ tree: JSONValue, announcing announced: WriteOperation, replacing replaced: JSONValue?,
    except writer: ObjectIdentifier?
  ) {
    root = tree
    let touched = listenIndex.listens(touchedBy: announced, excluding: writer)
    var start = touched.startIndex
    while start < touched.endIndex {
      let client = touched[start].client
      let end = touched[start...].firstIndex { $0.client != client } ?? touched.endIndex
      defer { start = end }
      guard let session = sessions[client] else { continue }
      for message in announced.messages(
        to: touched[start..<end].lazy.map(\.path), in: tree,
        replaced: session.sharesTree ? replaced : nil, sharing: session.sharesTree)
      {
        session.deliver(message)
      }
    }
  }

  // MARK: Rules and authentication

  /// Replaces the rules; every live listen is checked again, and those that lost read access
  /// are revoked.
  mutating func setRules(_ rules: DatasyncRules, now: Date) {
    self.rules = rules
    for client in sessions.keys {
      recheckListens(of: client, now: now)
    }
  }

  /// Makes a token stand for an identity (nil revokes it). The clients authenticated with it
  /// are told their new identity (nil: they are unauthenticated) and lose the listens they may no
  /// longer read.
  mutating func setAuthentication(
    _ auth: DatasyncAuthentication?, forToken token: String, now: Date
  ) {
    tokens[token] = auth
    for (client, session) in sessions where session.token == token && session.auth != auth {
      sessions[client]?.auth = auth
      if auth == nil { sessions[client]?.token = nil }
      session.deliver(.authenticationChanged(auth))
      recheckListens(of: client, now: now)
    }
  }

  /// Checks every listen of a client again (outermost first) and revokes those it may no longer
  /// read. Costs one read check per listen, whatever the size of the data.
  private mutating func recheckListens(of client: ObjectIdentifier, now: Date) {
    guard let session = sessions[client], !session.listens.isEmpty else { return }
    for path in session.listens.sorted(by: { $0.depth < $1.depth })
    where sessions[client]?.listens.contains(path) == true {
      if let denied = rules.checkRead(path, auth: session.auth, root: root, now: now) {
        revoke(path, of: client, error: denied)
      }
    }
  }

  /// Stops serving a client's listens at or below a path (as the client drops them when told)
  /// and tells it why.
  private mutating func revoke(
    _ path: DatasyncPath, of client: ObjectIdentifier, error: WebcomError
  ) {
    guard let session = sessions[client] else { return }
    for listen in session.listens where path.isAncestorOrSelf(of: listen) {
      listenIndex.remove(listen, for: client)
    }
    sessions[client]?.listens = session.listens.filter { !path.isAncestorOrSelf(of: $0) }
    session.deliver(.revoked(path, error))
  }

  /// Stops serving the listens at or below a path, whoever the client: they get a revocation
  /// with `error`.
  mutating func revokeListens(at path: DatasyncPath, error: WebcomError) {
    for (client, session) in sessions
    where session.listens.contains(where: { path.isAncestorOrSelf(of: $0) }) {
      revoke(path, of: client, error: error)
    }
  }
}
