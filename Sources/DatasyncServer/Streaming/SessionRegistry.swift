import Datasync
import Foundation

/// The clients of the session protocol a server knows, by namespace and client identifier: the
/// live session of each (at most one: a new stream replaces the previous one) and the identity
/// object that outlives sessions, so that disconnection operations registered to run at every
/// disconnection survive a reconnection.
///
/// A client whose last session ended is remembered among at most ``maximumIdleClients``; beyond
/// that, the longest idle one is forgotten and its remaining disconnection operations cancelled.
final class SessionRegistry: @unchecked Sendable {
  /// A client as the server knows it.
  private final class Client: @unchecked Sendable {
    /// The client's identity for the back end.
    let identity = ClientIdentity()
    let database: DatasyncDatabase
    /// Protects `session`, `closeStream` and `isForgotten`; held while a session replaces
    /// another, so that the sessions of one client never overlap in the back end.
    let lock = NSLock()
    var session: HostedSession?
    /// Ends the live session's event stream.
    var closeStream: (@Sendable () -> Void)?
    /// Whether the registry forgot the client (a new stream then makes a new client).
    var isForgotten = false

    init(database: DatasyncDatabase) {
      self.database = database
    }
  }

  /// Identifies a client to the back end across its sessions.
  private final class ClientIdentity {}

  private struct Key: Hashable {
    let namespace: Namespace?
    let clientID: String
  }

  /// How many clients without a live session are remembered.
  let maximumIdleClients: Int

  /// Protects `clients` and `idle` (never held with a client's lock).
  private let lock = NSLock()
  private var clients: [Key: Client] = [:]
  /// The clients without a live session, the longest idle first.
  private var idle: [Key] = []

  init(maximumIdleClients: Int) {
    self.maximumIdleClients = maximumIdleClients
  }

  /// A session's event stream: how to send an event on it and how to end it.
  struct Stream {
    let send: @Sendable (HostedEvent) -> Void
    let close: @Sendable () -> Void
  }

  /// Starts a session for a client, replacing its live one if any (whose disconnection
  /// operations run first, and whose stream is closed).
  ///
  /// - Parameters:
  ///   - identity: The identity `token` stands for (nil without a token).
  ///   - openStream: Opens the session's stream, once the session may start.
  /// - Throws: ``RESTError`` (403) when the live session is authenticated as another identity
  ///   (no stream is opened), or what `openStream` throws.
  func open(
    clientID: String, namespace: Namespace?, database: DatasyncDatabase, token: String?,
    identity: DatasyncAuthentication?, openStream: () throws(RESTError) -> Stream
  ) throws(RESTError) -> HostedSession {
    let key = Key(namespace: namespace, clientID: clientID)
    while true {
      let client = lock.withLock {
        let client = clients[key] ?? Client(database: database)
        clients[key] = client
        idle.removeAll { $0 == key }
        return client
      }
      let replaced: Result<(HostedSession, (@Sendable () -> Void)?), RESTError>? =
        client.lock.withLock {
          guard !client.isForgotten else { return nil }
          if let live = client.session {
            let isSameClient =
              live.token == token || live.identity == nil || live.identity == identity
            guard isSameClient else {
              return .failure(
                RESTError(
                  .forbidden,
                  "the client \(clientID) has a live session authenticated as another identity"))
            }
          }
          let stream: Stream
          do throws(RESTError) {
            stream = try openStream()
          } catch {
            return .failure(error)
          }
          client.session?.close()
          let previousStream = client.closeStream
          let session = HostedSession(
            database: database, identity: client.identity, clientID: clientID, send: stream.send)
          client.session = session
          client.closeStream = stream.close
          session.start(token: token)
          return .success((session, previousStream))
        }
      guard let replaced else { continue }
      let (session, previousStream) = try replaced.get()
      previousStream?()
      return session
    }
  }

  /// The live session of a client, nil when it has none.
  func session(clientID: String, namespace: Namespace?) -> HostedSession? {
    let client = lock.withLock { clients[Key(namespace: namespace, clientID: clientID)] }
    return client?.lock.withLock { client?.session }
  }

  /// Records that a session's stream ended: the session is closed (its disconnection
  /// operations run), and its client becomes idle unless a newer session replaced it.
  func ended(_ session: HostedSession, clientID: String, namespace: Namespace?) {
    session.close()
    let key = Key(namespace: namespace, clientID: clientID)
    guard let client = lock.withLock({ clients[key] }) else { return }
    let becameIdle = client.lock.withLock {
      guard client.session === session else { return false }
      client.session = nil
      client.closeStream = nil
      return true
    }
    guard becameIdle else { return }
    let evicted: Client? = lock.withLock {
      guard clients[key] === client else { return nil }
      idle.append(key)
      guard idle.count > maximumIdleClients else { return nil }
      return clients.removeValue(forKey: idle.removeFirst())
    }
    guard let evicted else { return }
    let isIdle = evicted.lock.withLock {
      evicted.isForgotten = true
      return evicted.session == nil
    }
    if isIdle { evicted.database.forgetHostedClient(evicted.identity) }
  }
}
