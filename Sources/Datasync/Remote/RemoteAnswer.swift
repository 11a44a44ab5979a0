import Foundation

/// What an HTTP answer means for the request it answers.
enum RemoteAnswer {
  /// The server did not really answer (a gateway's or an overloaded server's `502`, `503`,
  /// `504`): the connection counts as lost and the request is sent again after reconnection.
  case unavailable(String)
  /// The back end answered: its message for the client.
  case message(BackEndMessage)

  /// The meaning of `status` and `body` answering `request` (a request with a
  /// ``RemoteRequest``). A write's message is its announced write; see
  /// ``RemoteConnection`` for how it reaches the client.
  init(_ request: ClientRequest, status: Int, body: [UInt8], url: String) {
    if [502, 503, 504].contains(status) {
      self = .unavailable(
        "the server at \(url) is unavailable (HTTP \(status)\(Self.reason(in: body)))")
      return
    }
    let success = (200..<300).contains(status)
    switch request {
    case .write(let identifier, let operation):
      guard success else {
        let code: WebcomError.Code = status == 412 ? .transactionAborted : Self.code(of: status)
        let current = status == 412 ? try? JSONParser.parse(body) : nil
        self = .message(
          .rejected(identifier, Self.error(code, status, body, operation.path), current: current))
        return
      }
      do {
        self = .message(.acknowledged(identifier, announced: try Self.announced(operation, body)))
      } catch {
        self = .undecodable(
          identifier,
          "the server at \(url) answered the write to \(operation.path.string) with data that is "
            + "not what it wrote: \(error.message)")
      }
    case .read(let identifier, let path):
      guard success else {
        self = .message(
          .rejected(identifier, Self.error(Self.code(of: status), status, body, path), current: nil)
        )
        return
      }
      do {
        self = .message(.value(identifier, try JSONParser.parse(body)))
      } catch {
        self = .undecodable(
          identifier,
          "the server at \(url) answered the read of \(path.string) with invalid JSON: "
            + error.message)
      }
    case .authenticate(let identifier, let token):
      if status == 401 {
        self = .message(
          .rejected(
            identifier,
            WebcomError(
              .permissionDenied,
              "the server at \(url) refused the token\(Self.reason(in: body))"),
            current: nil))
      } else {
        self = .message(.authenticated(identifier, RemoteConnection.tokenIdentity(for: token)))
      }
    case .listen, .unlisten, .writeOnDisconnection, .cancelDisconnectionWrites, .signOut:
      self = .message(.acknowledged(request.identifier ?? 0, announced: nil))
    }
  }

  /// The refusal of a request whose answer cannot be understood.
  private static func undecodable(_ identifier: RequestIdentifier, _ message: String) -> Self {
    .message(.rejected(identifier, WebcomError(.decodingFailed, message), current: nil))
  }

  /// What the back end wrote for a write acknowledged with `body`: the value a `PUT` answers
  /// (server values resolved), the entries a `PATCH` answers.
  private static func announced(_ operation: WriteOperation, _ body: [UInt8]) throws(WebcomError)
    -> WriteOperation
  {
    switch operation {
    case .set(let path, .null):
      return .set(path, .null)
    case .set(let path, _), .increment(let path, _, _), .compareAndSet(let path, _, _):
      return .set(path, try JSONParser.parse(body))
    case .merge(let path, _):
      let members = try JSONParser.parseMembers(body)
      return .merge(
        path, try MergeEntry.entries(from: members.map { (WebcomKey($0.key), $0.value) }))
    }
  }

  /// The code of a refusal's status: `permissionDenied` for 401 and 403, `invalidArgument` for
  /// other client errors, `internalError` for server errors.
  static func code(of status: Int) -> WebcomError.Code {
    switch status {
    case 401, 403: .permissionDenied
    case 400..<500: .invalidArgument
    default: .internalError
    }
  }

  private static func error(
    _ code: WebcomError.Code, _ status: Int, _ body: [UInt8], _ path: DatasyncPath
  ) -> WebcomError {
    WebcomError(
      code, "the server refused the request at \(path.string) (HTTP \(status)\(reason(in: body)))")
  }

  /// `: <message>` with the `error` member of a JSON error body (or the body's text when short),
  /// empty when there is none.
  static func reason(in body: [UInt8]) -> String {
    if let members = try? JSONParser.parseMembers(body),
      case .string(let message)? = members.last(where: { $0.key == "error" })?.value
    {
      return ": " + message
    }
    let text = String(decoding: body.prefix(200), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    return text.isEmpty ? "" : ": " + text
  }
}
