/// What every rule of one read or one write is evaluated against.
struct RuleContext: Sendable {
  /// The client's authentication, `nil` when unauthenticated.
  let auth: DatasyncAuthentication?
  /// `now`, in milliseconds since 1970.
  let now: Int64
  /// The tree before the operation (`root`).
  let oldRoot: JSONValue
  /// The tree after the operation (the current tree for a read).
  let newRoot: JSONValue
}
