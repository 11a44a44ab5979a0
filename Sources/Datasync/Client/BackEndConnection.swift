import Foundation

/// A request from a client to its back end.
enum ClientRequest: Sendable {
  /// Start sending the data at the path: one ``BackEndMessage/listenData(_:_:)`` with the complete
  /// value, then every change that touches it.
  case listen(DatasyncPath)
  /// Stop sending changes for a path previously listened to.
  case unlisten(DatasyncPath)
  /// Apply a write; answered by ``BackEndMessage/acknowledged(_:announced:)`` or
  /// ``BackEndMessage/rejected(_:_:current:)``.
  case write(WriteIdentifier, WriteOperation)
  /// Register a write to run when this client disconnects (once, or at every disconnection);
  /// answered by an acknowledgement or a rejection.
  case writeOnDisconnection(WriteIdentifier, WriteOperation, repeating: Bool)
  /// Cancel the disconnection writes registered at the path; answered by an acknowledgement.
  case cancelDisconnectionWrites(WriteIdentifier, DatasyncPath)
  /// Read the complete value at a path once; answered by ``BackEndMessage/value(_:_:)``, or by
  /// ``BackEndMessage/rejected(_:_:current:)`` when the rules deny it.
  case read(WriteIdentifier, DatasyncPath)
  /// Authenticate this connection with a token: from now on the rules see the token's identity
  /// as `auth`. Answered by ``BackEndMessage/authenticated(_:_:)``, or by a rejection with
  /// `permissionDenied` for a token the back end does not know (the connection's authentication
  /// is then unchanged). A connection starts unauthenticated, also after a reconnection.
  case authenticate(WriteIdentifier, token: String)
  /// Make this connection unauthenticated; answered by an acknowledgement.
  case signOut(WriteIdentifier)
}

/// A message from a back end to a client, delivered in order.
enum BackEndMessage: Sendable {
  /// The connection is established; `clockOffset` is the back end's clock minus the client's.
  case connected(clockOffset: TimeInterval)
  /// The connection is lost; listens are dropped and must be renewed on reconnection.
  case disconnected
  /// The complete value at a listened path.
  case listenData(DatasyncPath, JSONValue)
  /// Another client's write (or a disconnection write) that touches a listened path.
  case changed(WriteOperation)
  /// The client's own write was applied; `announced` is what was written (server values resolved,
  /// increments as the resulting value), nil for registrations and cancellations.
  case acknowledged(WriteIdentifier, announced: WriteOperation?)
  /// The client's write was not applied; `current` is the back end's value at the path when known.
  case rejected(WriteIdentifier, WebcomError, current: JSONValue?)
  /// The answer to a read.
  case value(WriteIdentifier, JSONValue)
  /// The back end no longer sends data for the path; listens there are dropped. Also the answer
  /// to a listen the rules deny.
  case revoked(DatasyncPath, WebcomError)
  /// The answer to a successful authentication: the identity the rules now see.
  case authenticated(WriteIdentifier, DatasyncAuthentication)
  /// The back end changed the identity of this connection without being asked: the token it
  /// authenticated with now stands for another identity, or was revoked (nil: the connection is
  /// unauthenticated). Revocations of the listens it may no longer read follow.
  case authenticationChanged(DatasyncAuthentication?)
}

/// Identifies a request that expects an answer, unique within one client.
typealias WriteIdentifier = UInt64

/// The one interface between a client (``DatasyncService``) and a back end.
///
/// A connection delivers the client's requests to the back end in order and the back end's
/// messages to the client in order, asynchronously: neither side is ever called back from inside
/// ``send(_:)``. The embedded back end implements it in-process; a remote back end implements it
/// over the network.
protocol BackEndConnection: AnyObject, Sendable {
  /// Starts the connection; every message of the back end is passed to `receiver`, in order, one
  /// at a time.
  func open(receiver: @escaping @Sendable (BackEndMessage) -> Void)
  /// Queues a request for the back end; never blocks and never calls back synchronously.
  func send(_ request: ClientRequest)
  /// Connects (true) or disconnects (false); the back end runs its disconnection writes when this
  /// client disconnects.
  func setConnected(_ connected: Bool)
  /// Ends the connection for good, as a disconnection.
  func close()
}
