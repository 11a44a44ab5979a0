/// What every rule of one read or one write is evaluated against, shared by their evaluators.
final class RuleContext: Sendable {
  /// The client's authentication, `nil` when unauthenticated.
  let auth: DatasyncAuthentication?
  /// `now`, in milliseconds since 1970.
  let now: Int64
  /// The tree before the operation (`root`).
  let oldRoot: JSONValue
  /// The tree after the operation (the current tree for a read).
  let newRoot: JSONValue

  init(auth: DatasyncAuthentication?, now: Int64, oldRoot: JSONValue, newRoot: JSONValue) {
    self.auth = auth
    self.now = now
    self.oldRoot = oldRoot
    self.newRoot = newRoot
  }
}
