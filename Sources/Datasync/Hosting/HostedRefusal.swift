/// Why the back end refused a request of a hosted client (a client served over a network).
package struct HostedRefusal: Error, Sendable {
  /// What was refused and why (`permissionDenied` for the rules, `invalidValue`, ...).
  package let error: WebcomError
  /// The value at the written location when the client may read it (sent with a refused
  /// write), else nil.
  package let current: JSONValue?
  /// Whether the client's credential was refused (an unknown or revoked token) rather than the
  /// request itself.
  package let isAuthentication: Bool

  package init(_ error: WebcomError, current: JSONValue? = nil, isAuthentication: Bool = false) {
    self.error = error
    self.current = current
    self.isAuthentication = isAuthentication
  }
}
