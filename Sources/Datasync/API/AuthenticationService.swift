import Foundation

/// The authentication of an application with its back end: the identity its security rules see
/// as `auth` for every read, listen and write of the application's ``DatasyncService``.
///
/// An application starts unauthenticated. ``authenticate(withToken:queue:then:)`` sends a token
/// the back end knows (see `DatasyncDatabase(rules:tokens:)`) and gets the identity it stands
/// for; ``signOut(queue:then:)`` returns to unauthenticated. Requests are sent in the order they
/// are made, after the requests already sent: a write made after an authentication is checked as
/// the new identity.
///
/// The authentication survives disconnections: the service keeps the accepted token and, after
/// each reconnection, sends it before renewing its subscriptions and sending its queued writes,
/// so that they are checked as the same identity. If the back end refuses it then (the token was
/// revoked meanwhile), the state becomes ``AuthenticationState/unauthenticated`` and the
/// subscriptions that needed the identity are revoked with `permissionDenied`. Authentication
/// requests made while disconnected wait for the connection and go first once it is back.
///
/// ```swift
/// let auth = app.authenticationService
/// let observation = auth.observeState { state in
///   signInButton.isHidden = state != .unauthenticated
/// }
/// let alice = try await auth.authenticate(withToken: aliceToken)
/// try await (manager / "users/\(alice.uid)/name")?.set("Alice")
/// try await auth.signOut()
/// ```
///
/// A service is thread-safe.
public final class AuthenticationService: Sendable {
  let client: DatasyncClient

  init(client: DatasyncClient) {
    self.client = client
  }

  /// The current state: the identity the back end gave the accepted token, or unauthenticated.
  public var state: AuthenticationState { AuthenticationState(client.authentication) }

  /// Authenticates the application with a token.
  ///
  /// On success the state becomes ``AuthenticationState/authenticated(_:)`` with the identity
  /// (observers are told before `then` runs) and the token is kept for reconnections. A refused
  /// token leaves the state and the kept token as they were.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``DatasyncNode/set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - token: A token the back end knows.
  ///   - queue: The queue `then` is called on.
  ///   - then: Receives the identity the back end granted, or a ``WebcomError``:
  ///     `permissionDenied` for a token the back end does not know (or revoked),
  ///     `disconnected` when the connection is disabled, or drops, before the back end
  ///     answers (the kept token, if any, is the one sent again on reconnection).
  public func authenticate(
    withToken token: String, queue: DispatchQueue = .main,
    then: ((WebcomResult<DatasyncAuthentication>) -> Void)? = nil
  ) {
    authenticate(withToken: token, target: CallbackTarget(queue: queue, then: then))
  }

  /// Authenticates the application for `target`, as ``authenticate(withToken:queue:then:)``.
  func authenticate(withToken token: String, target: CallbackTarget<DatasyncAuthentication>) {
    client.authenticate(withToken: token) { result in
      target.deliver(
        result.flatMap { identity in
          identity.map { .success($0) }
            ?? .failure(
              WebcomError(
                .internalError, "the back end acknowledged an authentication without an identity"
              ))
        })
    }
  }

  /// Authenticates the application with a token (see ``authenticate(withToken:queue:then:)``).
  ///
  /// - Returns: The identity the back end granted.
  /// - Throws: ``WebcomError``, `permissionDenied` for an unknown token.
  @discardableResult
  public func authenticate(withToken token: String) async throws -> DatasyncAuthentication {
    try await CallbackTarget.result { authenticate(withToken: token, target: $0) }
  }

  /// Signs the application out: the state becomes ``AuthenticationState/unauthenticated`` once
  /// the back end has done it, and the kept token is forgotten. The back end revokes the
  /// subscriptions that needed the identity.
  ///
  /// From `async` code this form is chosen only when `queue:` or `then:` is passed (but for
  /// top-level code: see ``DatasyncNode/set(_:at:queue:then:)``).
  ///
  /// - Parameters:
  ///   - queue: The queue `then` is called on.
  ///   - then: Called once the back end signed the connection out, or with a ``WebcomError``
  ///     with code `disconnected` when the connection is disabled, or drops, first (the
  ///     application is then unauthenticated all the same: the connection comes back so).
  public func signOut(queue: DispatchQueue = .main, then: ((WebcomResult<Void>) -> Void)? = nil) {
    signOut(target: CallbackTarget(queue: queue, then: then))
  }

  /// Signs the application out for `target`, as ``signOut(queue:then:)``.
  func signOut(target: CallbackTarget<Void>) {
    client.signOut { result in target.deliver(result.map { _ in () }) }
  }

  /// Signs the application out (see ``signOut(queue:then:)``).
  ///
  /// - Throws: ``WebcomError`` with code `disconnected` when the back end could not answer.
  public func signOut() async throws {
    try await CallbackTarget.result { signOut(target: $0) }
  }

  /// Calls `onChange` on `queue` with the current state, then at every change, until the
  /// observation is cancelled.
  ///
  /// States arrive in order and never the same state twice in a row. A disconnection is not a
  /// change: the state changes only when the back end answers or revokes a token.
  ///
  /// - Parameters:
  ///   - queue: The queue `onChange` is called on.
  ///   - onChange: Receives the current state, then each new state.
  /// - Returns: The observation; cancel it to stop observing.
  @discardableResult
  public func observeState(
    queue: DispatchQueue = .main, onChange: @escaping (AuthenticationState) -> Void
  ) -> DatasyncStateObservation {
    let relay = StateRelay(queue: queue, onChange: onChange)
    let client = self.client
    let token = client.addAuthenticationObserver { state in relay.deliverChange(state) }
    relay.deliverInitial(state)
    return DatasyncStateObservation {
      relay.stop()
      client.removeAuthenticationObserver(token)
    }
  }
}
