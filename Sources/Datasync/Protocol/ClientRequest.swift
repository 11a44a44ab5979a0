/// A request from a client to its back end.
enum ClientRequest: Sendable {
  /// Start sending the data at the path: one ``BackEndMessage/listenData(_:_:)`` with the complete
  /// value, then every change that touches it.
  case listen(DatasyncPath)
  /// Stop sending changes for a path previously listened to.
  case unlisten(DatasyncPath)
  /// Apply a write; answered by ``BackEndMessage/acknowledged(_:announced:)`` or
  /// ``BackEndMessage/rejected(_:_:current:)``.
  case write(RequestIdentifier, WriteOperation)
  /// Register a write to run when this client disconnects (once, or at every disconnection);
  /// answered by an acknowledgement or a rejection.
  case writeOnDisconnection(RequestIdentifier, WriteOperation, repeating: Bool)
  /// Cancel the disconnection writes registered at the path; answered by an acknowledgement.
  case cancelDisconnectionWrites(RequestIdentifier, DatasyncPath)
  /// Read the complete value at a path once; answered by ``BackEndMessage/value(_:_:)``, or by
  /// ``BackEndMessage/rejected(_:_:current:)`` when the rules deny it.
  case read(RequestIdentifier, DatasyncPath)
  /// Authenticate this connection with a token: from now on the rules see the token's identity
  /// as `auth`. Answered by ``BackEndMessage/authenticated(_:_:)``, or by a rejection with
  /// `permissionDenied` for a token the back end does not know (the connection's authentication
  /// is then unchanged). A connection starts unauthenticated, also after a reconnection.
  case authenticate(RequestIdentifier, token: String)
  /// Make this connection unauthenticated; answered by an acknowledgement.
  case signOut(RequestIdentifier)
}

extension ClientRequest {
  /// The identifier of a request that expects an answer, nil for the others.
  var identifier: RequestIdentifier? {
    switch self {
    case .listen, .unlisten: nil
    case .write(let identifier, _), .writeOnDisconnection(let identifier, _, _),
      .cancelDisconnectionWrites(let identifier, _), .read(let identifier, _),
      .authenticate(let identifier, _), .signOut(let identifier):
      identifier
    }
  }
}
