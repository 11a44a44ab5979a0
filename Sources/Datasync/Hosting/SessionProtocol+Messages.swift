import Foundation

/// The back end's messages as session events (see ``SessionProtocol``).
extension SessionProtocol {
  /// The event of a message; nil for `disconnected`, which the end of the stream tells.
  ///
  /// - Parameters:
  ///   - message: The back end's message.
  ///   - client: The client's identifier, for `connected`.
  ///   - now: The client-side clock `connected` is measured against.
  static func event(for message: BackEndMessage, client: String, now: Date = Date()) -> HostedEvent?
  {
    let name: String
    let members: [(key: String, value: JSONText)]
    switch message {
    case .connected(let clockOffset):
      let milliseconds = ((now.timeIntervalSince1970 + clockOffset) * 1000).rounded()
      name = "connected"
      members = [("client", .value(.string(client))), ("timestamp", .value(number(milliseconds)))]
    case .disconnected:
      return nil
    case .listenData(let path, let value):
      name = "listened"
      members = [("path", path.jsonText), ("data", .value(value))]
    case .changed(let write), .changedSharing(let write, _, _, _):
      guard let change = change(write) else { return nil }
      return HostedEvent(name: change.name, data: JSONText.object(change.members).string)
    case .acknowledged(let identifier, let announced):
      name = "ack"
      var all = [id(identifier)]
      if let announced, let change = change(announced) {
        all.append((change.name, .object(change.members)))
      }
      members = all
    case .acknowledgedAsChanged(let identifier, _):
      name = "ack"
      members = [id(identifier)]
    case .rejected(let identifier, let error, let current):
      name = "reject"
      members =
        [id(identifier), ("error", errorText(error))]
        + (current.map { [("current", .value($0))] } ?? [])
    case .value(let identifier, let value):
      name = "value"
      members = [id(identifier), ("data", .value(value))]
    case .revoked(let path, let error):
      name = "revoke"
      members = [("path", path.jsonText), ("error", errorText(error))]
    case .authenticated(let identifier, let auth):
      name = "auth"
      members = [id(identifier), ("auth", .value(auth.jsonValue))]
    case .authenticationChanged(let auth):
      name = "auth-change"
      members = [("auth", .value(auth?.jsonValue ?? .null))]
    }
    return HostedEvent(name: name, data: JSONText.object(members).string)
  }

  /// A change as a `put` (a set) or a `patch` (a merge); increments and compare-and-sets are
  /// announced as the sets they resulted in, so they have none.
  private static func change(_ write: WriteOperation) -> (
    name: String, members: [(key: String, value: JSONText)]
  )? {
    switch write {
    case .set(let path, let value): ("put", [("path", path.jsonText), ("data", .value(value))])
    case .merge(let path, let entries):
      ("patch", [("path", path.jsonText), ("data", .entries(entries))])
    case .increment, .compareAndSet: nil
    }
  }

  private static func errorText(_ error: WebcomError) -> JSONText {
    .object([
      ("code", .value(.string(error.code.rawValue))), ("message", .value(.string(error.message))),
    ])
  }

  /// The message of an event; nil for `keep-alive`.
  ///
  /// - Parameter now: The client-side clock `connected` is measured against.
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the event and what is wrong
  ///   (an unknown event, a missing or invalid member).
  static func message(from event: HostedEvent, now: Date = Date()) throws(WebcomError)
    -> BackEndMessage?
  {
    if event.name == "keep-alive" { return nil }
    do {
      let fields = try JSONFields(Array(event.data.utf8)[...])
      return try message(named: event.name, fields, now: now)
    } catch {
      throw WebcomError(
        .invalidArgument, "the session event \(event.name) is invalid: \(error.message)")
    }
  }

  private static func message(named name: String, _ fields: JSONFields, now: Date)
    throws(WebcomError) -> BackEndMessage
  {
    switch name {
    case "connected":
      let timestamp = try fields.number("timestamp")
      return .connected(clockOffset: timestamp / 1000 - now.timeIntervalSince1970)
    case "listened": return .listenData(try fields.path("path"), try fields.required("data"))
    case "put", "patch": return .changed(try change(named: name, fields))
    case "ack":
      let identifier = try fields.identifier("id")
      if fields.contains("put") {
        return .acknowledged(identifier, announced: try change(named: "put", fields.fields("put")))
      }
      if fields.contains("patch") {
        return .acknowledged(
          identifier, announced: try change(named: "patch", fields.fields("patch")))
      }
      return .acknowledged(identifier, announced: nil)
    case "reject":
      return .rejected(
        try fields.identifier("id"), try error(fields.fields("error")),
        current: try fields.value("current"))
    case "value": return .value(try fields.identifier("id"), try fields.required("data"))
    case "revoke": return .revoked(try fields.path("path"), try error(fields.fields("error")))
    case "auth":
      return .authenticated(
        try fields.identifier("id"),
        try DatasyncAuthentication.identity(from: fields.required("auth")))
    case "auth-change":
      let auth = try fields.required("auth")
      return .authenticationChanged(
        auth == .null ? nil : try DatasyncAuthentication.identity(from: auth))
    default:
      throw WebcomError(.invalidArgument, "unknown event")
    }
  }

  private static func change(named name: String, _ fields: JSONFields) throws(WebcomError)
    -> WriteOperation
  {
    let path = try fields.path("path")
    if name == "patch" { return .merge(path, try fields.mergeEntries("data")) }
    return .set(path, try fields.required("data"))
  }

  private static func error(_ fields: JSONFields) throws(WebcomError) -> WebcomError {
    let name = try fields.string("code")
    guard let code = WebcomError.Code(rawValue: name) else {
      throw WebcomError(.invalidArgument, "unknown error code \(WebcomKey.quoted(name))")
    }
    return WebcomError(code, try fields.string("message"))
  }
}
