/// Whether an application is authenticated with its back end, and as whom.
///
/// The state follows the back end's answers: it becomes ``authenticated(_:)`` when the back end
/// accepts a token, ``unauthenticated`` after a sign-out or when the back end revokes the token.
/// It survives disconnections: the token is sent again after each reconnection, and the state
/// only changes if the back end then refuses it (revoked meanwhile) or gives it another identity.
public enum AuthenticationState: Sendable, Hashable {
  /// No identity: the security rules see `auth` as `null`.
  case unauthenticated
  /// The identity the security rules see as `auth`.
  case authenticated(DatasyncAuthentication)

  /// The state of an identity: authenticated as it, or unauthenticated for nil.
  init(_ identity: DatasyncAuthentication?) {
    self = identity.map(AuthenticationState.authenticated) ?? .unauthenticated
  }

  /// The identity, nil when unauthenticated.
  public var authentication: DatasyncAuthentication? {
    if case .authenticated(let identity) = self { identity } else { nil }
  }
}
