import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RemoteConnection {
  // MARK: Session

  /// Whether a request travels on the session rather than as a REST request: disconnection
  /// operations and increments from a start other than 0 (the increment server value starts
  /// from 0) always; authentications unless the server lacks the extension (the session tells
  /// the identity a token stands for); sign-outs while a session is open or opening, so that the
  /// session stands for the same token as the REST requests.
  func travelsOnSession(_ request: ClientRequest) -> Bool {
    switch (request, session.phase) {
    case (.writeOnDisconnection, _), (.cancelDisconnectionWrites, _): true
    case (.write(_, .increment(_, let start, _)), _): start != 0
    case (.authenticate, .unavailable): false
    case (.authenticate, _): true
    case (.signOut, .opening), (.signOut, .open): true
    default: false
    }
  }

  /// Advances the request at the head of the pipeline, which travels on the session: posts it
  /// once the session is open (opening it first if needed), refuses it when the server does not
  /// offer the session extension.
  ///
  /// - Returns: Whether the pipeline may go on at once (the request was refused).
  func sendOnSession(_ request: ClientRequest) -> Bool {
    switch session.phase {
    case .unavailable(let answer):
      pipeline.removeFirst()
      if let identifier = request.identifier {
        deliver(.rejected(identifier, missingSessionError(request, answer: answer), current: nil))
      }
      return true
    case .closed:
      openSession()
      return false
    case .opening:
      return false
    case .open:
      post(request)
      return false
    }
  }

  /// The refusal of a request that needs the session extension the server lacks.
  private func missingSessionError(_ request: ClientRequest, answer: String) -> WebcomError {
    let missing =
      "the server at \(endpoint.base.absoluteString) does not offer the session extension "
      + "(\(answer)), which"
    switch request {
    case .write(_, .increment(let path, let start, _)):
      return WebcomError(
        .invalidArgument,
        "cannot increment \(path.string) from \(start): \(missing) increments from a start "
          + "other than 0 need (the increment server value starts from 0)")
    case .writeOnDisconnection(_, let operation, _):
      return WebcomError(
        .invalidArgument,
        "cannot register a disconnection write at \(operation.path.string): \(missing) "
          + "disconnection operations need")
    case .cancelDisconnectionWrites(_, let path):
      return WebcomError(
        .invalidArgument,
        "cannot cancel the disconnection writes at \(path.string): \(missing) disconnection "
          + "operations need")
    default:
      return WebcomError(.invalidArgument, "cannot send this request: \(missing) it needs")
    }
  }

  /// The URL of the session: `<base>/.session.json?client=<id>`, with the namespace and the
  /// credential.
  private func sessionURL(token: String?) -> URL {
    let root = endpoint.url(
      for: .root, token: token, [URLQueryItem(name: "client", value: session.clientID)])
    var components = URLComponents(url: root, resolvingAgainstBaseURL: false)!
    components.percentEncodedPath =
      String(components.percentEncodedPath.dropLast(".json".count)) + ".session.json"
    return components.url!
  }

  /// The session request as errors name it: `GET` and the session's path under the base URL.
  private var sessionRequestName: String {
    "GET " + sessionURL(token: nil).path
  }

  // MARK: Session stream

  /// Opens the session's stream with the connection's token; requests wait for its `connected`
  /// event.
  func openSession() {
    openSession(withToken: token)
  }

  private func openSession(withToken token: String?) {
    session.close()
    session.startStream(token: token)
    let number = session.streamNumber
    session.task = transport.start(
      eventStreamRequest(sessionURL(token: session.token)),
      handlers: RemoteTransport.Handlers(
        response: { [weak self] response in
          guard let self, self.session.streamNumber == number else { return }
          sessionResponded(response)
        },
        data: { [weak self] data in
          guard let self, self.session.streamNumber == number else { return }
          receiveOnSession(data)
        },
        completion: { [weak self] error in
          guard let self, self.session.streamNumber == number else { return }
          sessionEnded(error: error)
        }))
  }

  private func sessionResponded(_ response: HTTPURLResponse) {
    session.status = response.statusCode
    session.lastActivity = .now()
    let type = response.value(forHTTPHeaderField: "Content-Type") ?? "no content type"
    if session.status == 200 && !type.lowercased().hasPrefix("text/event-stream") {
      sessionUnavailable("\(sessionRequestName) answered with \(type), not an event stream")
    }
  }

  private func receiveOnSession(_ data: Data) {
    session.lastActivity = .now()
    guard session.status == 200 else {
      if session.errorBody.count < 4096 { session.errorBody += data.prefix(4096) }
      return
    }
    let number = session.streamNumber
    let events: [ServerSentEvent]
    do {
      events = try session.parser.parse(data)
    } catch {
      return sessionBroken("\(sessionRequestName) answered with a malformed event stream")
    }
    for event in events where session.streamNumber == number {
      handleSessionEvent(event)
    }
  }

  private func handleSessionEvent(_ event: ServerSentEvent) {
    let message: BackEndMessage?
    do {
      message = try SessionProtocol.message(from: HostedEvent(name: event.name, data: event.data))
    } catch {
      return sessionBroken(
        "the event \(event.name) of \(sessionRequestName) is not of the session protocol")
    }
    guard let message else { return }
    if session.phase == .opening {
      guard case .connected = message else {
        return sessionUnavailable(
          "the first event of \(sessionRequestName) was \(event.name), not connected")
      }
      session.phase = .open
      session.hasBeenOpen = true
      return sendNextRequest()
    }
    switch message {
    case .acknowledged(let identifier, _), .rejected(let identifier, _, _),
      .authenticated(let identifier, _):
      // Answered at once, even before its `POST` completes (whose completion is then
      // ignored), so that the changes the streams announce meanwhile apply to the written data.
      guard session.posted?.identifier == identifier else { return }
      finishSessionRequest(answer: message)
    case .authenticationChanged(let identity):
      // The token now stands for another identity, or was revoked: the REST requests and
      // streams go on without it then.
      if identity == nil { session.token = nil }
      guard identity != nil || token != nil else { return }
      deliver(message)
      if identity == nil { changeToken(to: nil) }
    default:
      break
    }
  }

  /// The stream broke the protocol: before `connected`, the server does not speak it; after, the
  /// connection is lost.
  private func sessionBroken(_ answer: String) {
    if session.phase == .opening {
      sessionUnavailable(answer)
    } else {
      loseConnection()
    }
  }

  private func sessionEnded(error: (any Error)?) {
    let status = session.status
    switch session.phase {
    case .opening where status == 401 && session.token != nil:
      // The token was revoked while away: the session starts unauthenticated, as a connection
      // does, and the client's authentication request answers for the token.
      openSession(withToken: nil)
    case .opening where error == nil && status != 0 && ![502, 503, 504].contains(status):
      let answer =
        status == 200
        ? "\(sessionRequestName) ended before its connected event"
        : "\(sessionRequestName) answered HTTP \(status)\(RemoteAnswer.reason(in: session.errorBody))"
      sessionUnavailable(answer)
    case .opening, .open:
      session.close()
      loseConnection()
    case .closed, .unavailable:
      break
    }
  }

  /// Ends the session's stream with the connection. A request whose `POST` the server accepted
  /// leaves the flight (its answer was lost with the stream): the pipeline sends it again after
  /// reconnection, or fails it if it is an authentication.
  func endSession() {
    session.close()
    if session.posted?.isAccepted == true {
      session.posted = nil
      inFlight = nil
    }
  }

  /// Records that the server does not offer the session extension (until the connection is
  /// lost): the requests that need it are refused, the others go on.
  private func sessionUnavailable(_ answer: String) {
    session.close()
    session.phase = .unavailable(answer)
    sendNextRequest()
  }

  // MARK: Session requests

  /// Posts the request at the head of the pipeline on the open session; it is answered by its
  /// event on the stream (which may come before the `POST` completes).
  private func post(_ request: ClientRequest) {
    guard let identifier = request.identifier else { return }
    session.postCount += 1
    let number = session.postCount
    var urlRequest = URLRequest(
      url: sessionURL(token: session.token), timeoutInterval: options.requestTimeout)
    urlRequest.httpMethod = "POST"
    urlRequest.httpBody = Data(SessionProtocol.body(of: [request]))
    urlRequest.setValue("application/json; charset=utf-8", forHTTPHeaderField: "Content-Type")
    session.posted = RemoteSession.Posted(
      identifier: identifier, number: number, streamNumber: session.streamNumber)
    let task = transport.start(
      urlRequest,
      handlers: RemoteTransport.Handlers(
        response: { [weak self] response in
          guard let self, self.session.posted?.number == number else { return }
          inFlight?.status = response.statusCode
        },
        data: { [weak self] data in
          guard let self, self.session.posted?.number == number else { return }
          inFlight?.body += data
        },
        completion: { [weak self] error in self?.postCompleted(number: number, error: error) }))
    inFlight = InFlight(task: task)
    cancel(task, after: options.requestTimeout) { [weak self] in
      self?.session.posted?.number == number
    }
  }

  private func postCompleted(number: UInt64, error: (any Error)?) {
    guard let posted = session.posted, posted.number == number, let finished = inFlight else {
      return
    }
    if finished.isAbandoned {
      session.posted = nil
      inFlight = nil
      pipeline.removeFirst()
      return sendNextRequest()
    }
    let status = error == nil ? finished.status : 0
    let isOnLiveSession =
      phase == .connected && session.phase == .open
      && posted.streamNumber == session.streamNumber
    if (200..<300).contains(status), isOnLiveSession {
      session.posted?.isAccepted = true
      return
    }
    session.posted = nil
    inFlight = nil
    // Posted on a session that has ended since: its answer cannot come, so it is sent again on
    // the next session (the changes held meanwhile, from the new streams, go on at once).
    guard isOnLiveSession else {
      if phase == .connected {
        for change in finished.held { deliver(.changed(change)) }
      }
      return sendNextRequest()
    }
    guard (400..<500).contains(status), status != 404 else {
      // No answer, the server unavailable, or the session gone (404): the request is sent
      // again after reconnection.
      return loseConnection()
    }
    pipeline.removeFirst()
    deliverAnswer(
      .rejected(
        posted.identifier,
        WebcomError(
          RemoteAnswer.code(of: status),
          "the server refused the session request (HTTP \(status)"
            + "\(RemoteAnswer.reason(in: finished.body)))"),
        current: nil), of: finished)
    sendNextRequest()
  }

  /// The request at the head of the pipeline got its answer on the session: it leaves the
  /// pipeline; an accepted token or a sign-out also changes what the REST requests present, and
  /// a write is acknowledged as a REST write is (see ``RemoteConnection``).
  private func finishSessionRequest(answer: BackEndMessage) {
    session.posted = nil
    let finished = inFlight
    inFlight = nil
    let request = pipeline.removeFirst()
    failures = 0
    switch (request, answer) {
    case (.authenticate(_, let accepted), .authenticated):
      session.token = accepted
      changeToken(to: accepted)
    case (.signOut, .acknowledged):
      session.token = nil
      changeToken(to: nil)
    default:
      break
    }
    if let finished {
      deliverAnswer(answer, of: finished)
    } else {
      deliverAnswer(answer)
    }
    sendNextRequest()
  }
}
