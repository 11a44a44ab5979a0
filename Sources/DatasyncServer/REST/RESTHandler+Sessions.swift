import Datasync
import Synchronization

/// The session protocol of this project's clients (see the README's "Serve" section): one event
/// stream per client carrying the back end's messages, and `POST`s carrying its requests, on
/// `/.session.json?client=<id>`.
extension RESTHandler {
  /// The path of the session protocol (a key cannot start with `.`, so it names no data).
  static let sessionPath = "/.session.json"

  /// Answers a request of the session protocol.
  func answerSession(_ request: HTTPRequest, responder: HTTPResponder) throws(RESTError)
    -> Outcome
  {
    let clientID = try Self.clientID(of: request)
    let namespace = try RESTRequest.namespace(of: request)
    let token = try RESTRequest.token(of: request)
    let database = try database(for: namespace)
    switch request.method {
    case "GET":
      guard
        request.headers.values(for: "Accept").contains(where: { $0.contains("text/event-stream") })
      else {
        throw RESTError(.badRequest, "a session is a stream: send Accept: text/event-stream")
      }
      try openSession(
        clientID: clientID, namespace: namespace, token: token, database: database,
        responder: responder)
      return .stream
    case "POST":
      guard let session = sessions.session(clientID: clientID, namespace: namespace) else {
        throw RESTError(
          .notFound, "the client \(clientID) has no live session: open its stream first")
      }
      guard session.token == token else {
        throw RESTError(
          .forbidden,
          "the session of client \(clientID) is authenticated with another credential: send its "
            + "requests with the session's token")
      }
      do {
        try session.perform(body: request.body)
      } catch {
        throw RESTError(.badRequest, error.message)
      }
      let response = HTTPResponse(status: .noContent, headers: ["Cache-Control": "no-cache"])
      responder.respond(response)
      return .response(response.status)
    default:
      throw RESTError(
        .methodNotAllowed, "the session path takes GET (its stream) and POST (its requests)",
        headers: ["Allow": "GET, POST"])
    }
  }

  private func openSession(
    clientID: String, namespace: Namespace?, token: String?, database: DatasyncDatabase,
    responder: HTTPResponder
  ) throws(RESTError) {
    var identity: DatasyncAuthentication?
    if let token {
      identity = try database.hostedAuthentication(token: token).mapError(RESTError.init).get()
    }
    let slot = SessionSlot(
      sessions: sessions, streams: streams, clientID: clientID, namespace: namespace)
    var opened: HTTPEventStream?
    let session = try sessions.open(
      clientID: clientID, namespace: namespace, database: database, token: token,
      identity: identity
    ) { () throws(RESTError) in
      let stream: HTTPEventStream
      do throws(WebcomError) {
        stream = try responder.openEventStream { _ in slot.streamEnded() }
      } catch {
        throw RESTError(.internalServerError, error.message)
      }
      opened = stream
      return SessionRegistry.Stream(
        send: { event in
          if (try? stream.send(event: event.name, data: event.data)) == nil { stream.close() }
        },
        close: { stream.close() })
    }
    if let opened { slot.opened(session, stream: opened) }
  }

  /// The client identifier of a session request: 16 to 128 ASCII letters, digits, `-` or `_`.
  private static func clientID(of request: HTTPRequest) throws(RESTError) -> String {
    guard let clientID = request.query("client") else {
      throw RESTError(.badRequest, "a session request needs ?client=<id>")
    }
    let isValid =
      (16...128).contains(clientID.utf8.count)
      && clientID.utf8.allSatisfy { byte in
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
          || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
          || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
          || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
      }
    guard isValid else {
      throw RESTError(
        .badRequest,
        "the client id must be 16 to 128 letters, digits, - or _ (a random id: it names the "
          + "client's session)")
    }
    return clientID
  }
}

/// A session's stream once open: when the stream ends, the session ends (its disconnection
/// operations run) and the stream is no longer kept alive.
private final class SessionSlot: Sendable {
  private struct State {
    var session: HostedSession?
    var registration: UInt64?
    var hasEnded = false
  }

  private let sessions: SessionRegistry
  private let streams: StreamRegistry
  private let clientID: String
  private let namespace: Namespace?
  private let state = Mutex(State())

  init(sessions: SessionRegistry, streams: StreamRegistry, clientID: String, namespace: Namespace?)
  {
    self.sessions = sessions
    self.streams = streams
    self.clientID = clientID
    self.namespace = namespace
  }

  /// Records the session and keeps its stream alive, or ends it at once if the stream already
  /// ended.
  func opened(_ session: HostedSession, stream: HTTPEventStream) {
    let registration = streams.add(stream) { session.close() }
    let hasEnded = state.withLock { state in
      state.session = session
      state.registration = registration
      return state.hasEnded
    }
    if hasEnded { streamEnded() }
  }

  /// The stream ended (on the server's loop thread).
  func streamEnded() {
    let (session, registration) = state.withLock { state in
      state.hasEnded = true
      defer {
        state.session = nil
        state.registration = nil
      }
      return (state.session, state.registration)
    }
    if let session { sessions.ended(session, clientID: clientID, namespace: namespace) }
    if let registration { streams.remove(registration) }
  }
}
