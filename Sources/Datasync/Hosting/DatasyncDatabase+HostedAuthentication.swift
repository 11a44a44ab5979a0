/// The credential of hosted clients.
extension DatasyncDatabase {
  /// Authenticates a connected client with a token; nil when it is authenticated (or no token
  /// was given), else the refusal.
  func authenticate(
    _ client: ObjectIdentifier, token: String?, recordedBy recorder: AnyObject
  ) -> HostedRefusal? {
    guard let token else { return nil }
    return HostedRefusal(
      WebcomError(
        .permissionDenied,
        "authentication failed: the token \(WebcomKey.quoted(token)) is unknown or was revoked"),
      isAuthentication: true)
  }
}
