import Foundation

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
  /// A write as in ``changed(_:)``, at or below the client's outermost listen covering it,
  /// `listen`, with the back end's whole new value there: a client in the same process as the
  /// back end takes that value, which shares the back end's storage, instead of applying the
  /// write to its own copy (a copy of the path to the write, and a second copy of the data).
  /// For a set, `replaced` is the value it replaced at its node (null where there was none),
  /// which the client then need not look up in its own tree; nil when not given.
  case changedSharing(
    WriteOperation, listen: DatasyncPath, value: JSONValue, replaced: JSONValue?)
  /// The client's own write was applied; `announced` is what was written (server values resolved,
  /// increments as the resulting value), nil for registrations and cancellations.
  case acknowledged(RequestIdentifier, announced: WriteOperation?)
  /// The client's own write was applied, and the changes already delivered include it (a
  /// remote back end announces the client's writes on its streams like anyone else's, and the
  /// announcement may come before the write's answer): the client stops applying it on top of
  /// the back end's data without touching that data. `written` answers the request: the value a
  /// set wrote (server values resolved, an increment's result), null otherwise.
  case acknowledgedAsChanged(RequestIdentifier, written: JSONValue)
  /// The client's write was not applied; `current` is the back end's value at the path when known.
  case rejected(RequestIdentifier, WebcomError, current: JSONValue?)
  /// The answer to a read.
  case value(RequestIdentifier, JSONValue)
  /// The back end no longer sends data for the path; listens there are dropped. Also the answer
  /// to a listen the rules deny.
  case revoked(DatasyncPath, WebcomError)
  /// The answer to a successful authentication: the identity the rules now see.
  case authenticated(RequestIdentifier, DatasyncAuthentication)
  /// The back end changed the identity of this connection without being asked: the token it
  /// authenticated with now stands for another identity, or was revoked (nil: the connection is
  /// unauthenticated). Revocations of the listens it may no longer read follow.
  case authenticationChanged(DatasyncAuthentication?)
}
