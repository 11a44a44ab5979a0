/// One-shot requests of hosted clients: a client served over a network asks once (a REST read
/// or write) and is answered, as a short-lived client of the back end with its own credential.
extension DatasyncDatabase {
  /// Reads the value at a path as a client presenting `token` (nil: unauthenticated).
  ///
  /// - Returns: The value, or the refusal (an unknown token, or the rules).
  package func hostedRead(_ path: DatasyncPath, token: String?) -> Result<JSONValue, HostedRefusal>
  {
    performOnce(
      token: token, { .read($0, path) },
      accept: { message -> JSONValue? in
        guard case .value(_, let value) = message else { return nil }
        return value
      })
  }

  /// Applies a write as a client presenting `token` (nil: unauthenticated), once it is
  /// committed.
  ///
  /// - Returns: What was written as the back end announces it (server values resolved; nil when
  ///   the client may not read the result of an increment), or the refusal (an unknown token,
  ///   the rules, invalid data, a failed compare-and-set, a storage failure).
  package func hostedWrite(_ operation: WriteOperation, token: String?)
    -> Result<WriteOperation?, HostedRefusal>
  {
    performOnce(
      token: token, { .write($0, operation) },
      accept: { message -> WriteOperation?? in
        guard case .acknowledged(_, let announced) = message else { return nil }
        return .some(announced)
      })
  }

  /// The identity a token stands for now.
  ///
  /// - Returns: The identity, or the refusal of an unknown or revoked token.
  package func hostedAuthentication(token: String) -> Result<DatasyncAuthentication, HostedRefusal>
  {
    withOneShotClient { client, identifier in
      handle(.authenticate(Self.authenticationRequest, token: token), from: identifier)
      switch client.answer(to: Self.authenticationRequest) {
      case .authenticated(_, let identity)?: return .success(identity)
      case .rejected(_, let error, _)?:
        return .failure(HostedRefusal(error, isAuthentication: true))
      case let other: return .failure(Self.unexpected(other ?? .disconnected))
      }
    }
  }

  /// Forgets a client of the session protocol for good: the disconnection operations it left
  /// registered (those run at every disconnection) are cancelled without running.
  ///
  /// - Parameter identity: The client's identity object (see ``HostedSession``); no session of
  ///   it may be connected.
  package func forgetHostedClient(_ identity: AnyObject) {
    let identifier = ObjectIdentifier(identity)
    attach(identifier) { _ in }
    handle(.cancelDisconnectionWrites(Self.authenticationRequest, .root), from: identifier)
    detach(identifier)
  }

  /// Connects a short-lived client, authenticates it, sends one request and returns the answer
  /// to it (the message carrying its identifier), then disconnects it. The back end answers
  /// each request while handling it, so the answer is there when `handle` returns.
  ///
  /// - Parameter accept: What a message answering the request means, nil for an answer of
  ///   another kind (an internal error). A rejection is the refusal the rules or the data gave.
  private func performOnce<Answer>(
    token: String?, _ request: (RequestIdentifier) -> ClientRequest,
    accept: (BackEndMessage) -> Answer?
  ) -> Result<Answer, HostedRefusal> {
    withOneShotClient { client, identifier in
      if let token {
        handle(.authenticate(Self.authenticationRequest, token: token), from: identifier)
        if case .rejected(_, let error, _)? = client.answer(to: Self.authenticationRequest) {
          return .failure(HostedRefusal(error, isAuthentication: true))
        }
      }
      let requestIdentifier: RequestIdentifier = 2
      handle(request(requestIdentifier), from: identifier)
      switch client.answer(to: requestIdentifier) {
      case nil:
        return .failure(
          HostedRefusal(WebcomError(.internalError, "the back end did not answer the request")))
      case .rejected(_, let error, let current)?:
        return .failure(HostedRefusal(error, current: current))
      case let message?:
        return accept(message).map { .success($0) } ?? .failure(Self.unexpected(message))
      }
    }
  }

  /// Runs `body` with a short-lived client attached to the back end, detached when it returns.
  private func withOneShotClient<Result>(
    _ body: (OneShotClient, ObjectIdentifier) -> Result
  ) -> Result {
    let client = OneShotClient()
    let identifier = ObjectIdentifier(client)
    attach(identifier) { message in client.record(message) }
    defer {
      detach(identifier)
      withExtendedLifetime(client) {}
    }
    return body(client, identifier)
  }

  /// The identifier of a hosted client's authentication request.
  static let authenticationRequest: RequestIdentifier = 1

  private static func unexpected(_ message: BackEndMessage) -> HostedRefusal {
    HostedRefusal(WebcomError(.internalError, "the back end answered unexpectedly: \(message)"))
  }
}

/// A client of one request: the messages the back end sends it.
private final class OneShotClient: Sendable {
  private let messages = LockedValue<[BackEndMessage]>([])

  func record(_ message: BackEndMessage) {
    messages.withLock { $0.append(message) }
  }

  /// The message answering the request of identifier `identifier`.
  func answer(to identifier: RequestIdentifier) -> BackEndMessage? {
    messages.withLock { messages in
      messages.first { message in
        switch message {
        case .acknowledged(let answered, _), .rejected(let answered, _, _),
          .value(let answered, _), .authenticated(let answered, _):
          answered == identifier
        default:
          false
        }
      }
    }
  }
}
