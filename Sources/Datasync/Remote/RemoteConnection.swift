import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The connection of a client to a remote database over HTTP, speaking the REST and streaming
/// protocol of hosted realtime databases (a `datasync serve` process, or a hosted database).
///
/// **Connected.** The connection counts as connected once the server answered a check request
/// (a shallow, silent `GET` of the root with the credential): any HTTP answer but `502`, `503`
/// and `504` shows that the server is there, even a refusal of the read. The clock offset is the
/// server's `Date` header minus the local time at the middle of that exchange, when the header
/// is present and the difference exceeds its one-second resolution, else 0. The connection is
/// lost when a stream ends or fails, sends something that is not the protocol (malformed
/// framing, invalid JSON, an unknown event, a first event that is not the location's value),
/// stays silent longer than ``RemoteOptions/idleTimeout``, or when a request fails without an
/// answer (a network error, ``RemoteOptions/requestTimeout``, `502`/`503`/`504`). Then the client
/// is told it is disconnected, every stream is closed, and the connection is checked again after
/// the policy's backoff (``RemoteOptions/reconnection``), until it succeeds.
///
/// **Listens** are streaming `GET`s (`Accept: text/event-stream`), one per listened location:
/// the first `put` is the location's value, later `put`s and `patch`es are changes (their paths
/// made absolute), `cancel` revokes the listen, `auth_revoked` ends the authentication (the
/// connection is then renewed without credential). A stream refused with `401`/`403` revokes
/// its listen with `permissionDenied`; with another client error, with `invalidArgument`.
///
/// **Requests** (writes, reads, authentications) go through one ordered pipeline, one at a time,
/// as ``RemoteRequest`` describes, each answered by its HTTP answer (``RemoteAnswer``). A request
/// that got no answer stays at the head of the pipeline and is sent again after reconnection, so
/// the network loses nothing; a write whose answer was lost may then be applied twice (harmless
/// for sets and merges, which write the same data; an increment adds its step twice). Answers
/// that arrive while disconnected reach the client right after it is told of the next
/// connection.
///
/// **Acknowledgements.** The server announces the client's own writes on its streams like any
/// other change, on another HTTP connection than the write's answer. When a stream covering the
/// write announced it before the answer arrived (or started meanwhile), the back end's data the
/// client holds already includes the write and maybe later changes: the write is acknowledged
/// with ``BackEndMessage/acknowledgedAsChanged(_:written:)``. Otherwise it is acknowledged with
/// what the server wrote, and the announcement that follows on the streams changes nothing.
///
/// **Authentication.** The REST protocol has no session: the token the back end last accepted is
/// sent (`auth=`) with every request and stream, including those sent again after a
/// reconnection. The protocol does not tell who a token stands for, so an accepted token gets
/// the identity ``tokenIdentity(for:)``; the rules of the server still see the real identity.
final class RemoteConnection: BackEndConnection, @unchecked Sendable {
  /// One listened location's stream.
  private final class Stream {
    let location: DatasyncPath
    let number: UInt64
    var task: URLSessionDataTask?
    var parser = ServerSentEventParser()
    var status = 0
    var errorBody: [UInt8] = []
    /// Whether the location's value arrived.
    var hasStarted = false
    var lastActivity = DispatchTime.now()

    init(location: DatasyncPath, number: UInt64) {
      self.location = location
      self.number = number
    }
  }

  /// The request at the head of the pipeline, once sent.
  private struct InFlight {
    let task: URLSessionDataTask?
    var status = 0
    var body: [UInt8] = []
    /// The changes the streams announced while the request was in flight (for a write: those
    /// that may be its own announcement), with the location of their stream.
    var announced: [(location: DatasyncPath, operation: WriteOperation)] = []
    /// Whether the client gave up waiting for it (an authentication when the connection
    /// dropped): it leaves the pipeline when it completes, its answer ignored.
    var isAbandoned = false
    /// Whether a stream covering the write got its location's value while it was in flight,
    /// holding what the write writes (so probably taken after the write).
    var coveringStreamStarted = false
  }

  private enum Phase {
    /// Not connected, and not trying to.
    case idle
    /// Checking that the server answers.
    case checking
    /// Waiting before the next check.
    case waiting
    case connected
  }

  private let endpoint: RemoteEndpoint
  /// Why the URL cannot be used (the connection then never connects), nil when it can.
  private let endpointError: WebcomError?
  private let options: RemoteOptions
  private let queue: DispatchQueue
  private let transport: RemoteTransport
  /// Protects `receiver`.
  private let lock = NSLock()
  private var receiver: (@Sendable (BackEndMessage) -> Void)?
  /// Everything below is touched only on `queue`.
  private var wantsConnection = false
  private var isClosed = false
  private var phase = Phase.idle
  /// Changes at each attempt and each loss, so that the callbacks of an older attempt do nothing.
  private var attempt = 0
  /// The failed attempts since the last successful exchange.
  private var failures = 0
  private var streams: [DatasyncPath: Stream] = [:]
  private var streamCount: UInt64 = 0
  private var pipeline: [ClientRequest] = []
  private var inFlight: InFlight?
  /// The number of requests sent, to tell whether the one in flight is still a given one.
  private var requestCount: UInt64 = 0
  /// Answers that arrived while disconnected, delivered after the next `connected`.
  private var deferredAnswers: [BackEndMessage] = []
  /// The token the back end last accepted.
  private var token: String?
  private var idleTimer: DispatchSourceTimer?
  private var reconnectionTimer: DispatchWorkItem?
  /// The response head of the check in progress.
  private var checkResponse: HTTPURLResponse?

  /// A connection to the database at `url`.
  init(url: URL, namespace: String?, options: RemoteOptions, label: String) {
    do {
      endpoint = try RemoteEndpoint(url: url, namespace: namespace)
      endpointError = nil
    } catch {
      endpoint = RemoteEndpoint(unchecked: url, namespace: namespace)
      endpointError = error
    }
    self.options = options
    queue = DispatchQueue(label: "datasync.remote.\(label)")
    transport = RemoteTransport(queue: queue)
  }

  /// The identity an accepted token stands for, as far as the client can tell: the REST
  /// protocol does not say, so it is `uid` the token's digest (the same token, the same
  /// identity) and `provider` `"token"`.
  static func tokenIdentity(for token: String) -> DatasyncAuthentication {
    DatasyncAuthentication(
      uid: String(JSONValue.string(token).digest, radix: 16), provider: "token")
  }

  func open(receiver: @escaping @Sendable (BackEndMessage) -> Void) {
    lock.withLock { self.receiver = receiver }
    setConnected(true)
  }

  func send(_ request: ClientRequest) {
    queue.async { [self] in
      guard !isClosed else { return }
      switch request {
      case .listen(let location):
        if phase == .connected { openStream(at: location) }
      case .unlisten(let location):
        closeStream(at: location)
      default:
        pipeline.append(request)
        sendNextRequest()
      }
    }
  }

  func setConnected(_ connected: Bool) {
    queue.async { [self] in
      guard !isClosed, connected != wantsConnection else { return }
      wantsConnection = connected
      if connected {
        failures = 0
        check()
      } else {
        disconnect(reconnecting: false)
      }
    }
  }

  func close() {
    lock.withLock { receiver = nil }
    queue.async { [self] in
      guard !isClosed else { return }
      disconnect(reconnecting: false)
      isClosed = true
      inFlight?.task?.cancel()
      inFlight = nil
      pipeline = []
      transport.invalidate()
    }
  }

  // MARK: Connection

  /// Checks that the server answers; connects when it does.
  private func check() {
    guard wantsConnection, endpointError == nil, phase == .idle || phase == .waiting else {
      return
    }
    phase = .checking
    checkResponse = nil
    attempt += 1
    let current = attempt
    let started = Date()
    var request = URLRequest(
      url: endpoint.url(for: .root, token: token, RemoteRequest.probeQuery),
      timeoutInterval: options.requestTimeout)
    request.httpMethod = "GET"
    let task = transport.start(
      request,
      handlers: RemoteTransport.Handlers(
        response: { [weak self] response in self?.checkResponse = response },
        data: { _ in },
        completion: { [weak self] error in
          guard let self, current == self.attempt, self.phase == .checking else { return }
          guard error == nil, let response = checkResponse,
            ![502, 503, 504].contains(response.statusCode)
          else {
            self.retryLater()
            return
          }
          self.connect(offset: Self.clockOffset(of: response, sentAt: started))
        }))
    cancel(task, after: options.requestTimeout) { [weak self] in
      current == self?.attempt && self?.phase == .checking
    }
  }

  /// Cancels a task that has not completed `timeout` seconds from now, if `isPending` still
  /// holds then (its completion then reports the cancellation as a failure).
  private func cancel(
    _ task: URLSessionDataTask?, after timeout: TimeInterval,
    if isPending: @escaping @Sendable () -> Bool
  ) {
    guard let task else { return }
    let box = UncheckedBox(task)
    queue.asyncAfter(deadline: .now() + timeout) {
      if box.value.state == .running && isPending() { box.value.cancel() }
    }
  }

  private static func clockOffset(of response: HTTPURLResponse, sentAt sent: Date) -> TimeInterval {
    guard let text = response.value(forHTTPHeaderField: "Date") else { return 0 }
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
    guard let date = formatter.date(from: text) else { return 0 }
    let middle = sent.addingTimeInterval(Date().timeIntervalSince(sent) / 2)
    let offset = date.timeIntervalSince(middle)
    return abs(offset) > 1 ? offset : 0
  }

  private func retryLater() {
    phase = .waiting
    failures += 1
    let delay = options.reconnection.delay(
      afterFailures: failures, random: Double.random(in: 0..<1))
    let work = DispatchWorkItem { [weak self] in
      guard let self, self.phase == .waiting else { return }
      self.check()
    }
    reconnectionTimer = work
    queue.asyncAfter(deadline: .now() + delay, execute: work)
  }

  private func connect(offset: TimeInterval) {
    phase = .connected
    deliver(.connected(clockOffset: offset))
    let answers = deferredAnswers
    deferredAnswers = []
    for answer in answers { deliver(answer) }
    startIdleTimer()
    sendNextRequest()
  }

  /// The connection is lost: the client is told, the streams close, and a new check follows
  /// after the backoff.
  private func loseConnection() {
    guard phase == .connected else { return }
    disconnect(reconnecting: true)
  }

  private func disconnect(reconnecting: Bool) {
    let wasConnected = phase == .connected
    attempt += 1
    reconnectionTimer?.cancel()
    reconnectionTimer = nil
    idleTimer?.cancel()
    idleTimer = nil
    for stream in streams.values { stream.task?.cancel() }
    streams = [:]
    phase = .idle
    // The client fails the authentications it sent when the connection drops: they leave the
    // pipeline (the one in flight when it completes, its answer ignored).
    let sending = inFlight == nil ? nil : pipeline.first?.identifier
    pipeline.removeAll { request in
      switch request {
      case .authenticate, .signOut: request.identifier != sending
      default: false
      }
    }
    if let sending, pipeline.first?.identifier == sending, case .authenticate? = pipeline.first {
      inFlight?.isAbandoned = true
    }
    if wasConnected { deliver(.disconnected) }
    if reconnecting && wantsConnection { retryLater() }
  }

  private func startIdleTimer() {
    let timer = DispatchSource.makeTimerSource(queue: queue)
    let interval = options.idleTimeout / 4
    timer.schedule(deadline: .now() + interval, repeating: interval)
    timer.setEventHandler { [weak self] in self?.checkIdleStreams() }
    idleTimer = timer
    timer.resume()
  }

  private func checkIdleStreams() {
    let limit = DispatchTime.now().uptimeNanoseconds
    let timeout = UInt64(options.idleTimeout * 1e9)
    for stream in streams.values
    where limit - min(limit, stream.lastActivity.uptimeNanoseconds) > timeout {
      loseConnection()
      return
    }
  }

  private func deliver(_ message: BackEndMessage) {
    guard let receiver = lock.withLock({ receiver }) else { return }
    receiver(message)
  }

  /// Delivers an answer now when connected, else after the next `connected`.
  private func deliverAnswer(_ message: BackEndMessage) {
    if phase == .connected {
      deliver(message)
    } else {
      deferredAnswers.append(message)
    }
  }

  // MARK: Streams

  private func openStream(at location: DatasyncPath) {
    closeStream(at: location)
    streamCount += 1
    let number = streamCount
    let stream = Stream(location: location, number: number)
    streams[location] = stream
    var request = URLRequest(
      url: endpoint.url(for: location, token: token),
      timeoutInterval: options.idleTimeout)
    request.httpMethod = "GET"
    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    stream.task = transport.start(
      request,
      handlers: RemoteTransport.Handlers(
        response: { [weak self] response in
          guard let self, let stream = self.stream(at: location, number: number) else { return }
          stream.status = response.statusCode
          stream.lastActivity = .now()
          let type = response.value(forHTTPHeaderField: "Content-Type") ?? "no content type"
          if stream.status == 200 && !type.lowercased().hasPrefix("text/event-stream") {
            notAStream(stream, type: type)
          }
        },
        data: { [weak self] data in
          guard let self, let stream = self.stream(at: location, number: number) else { return }
          receive(data, on: stream)
        },
        completion: { [weak self] _ in
          guard let self, let stream = self.stream(at: location, number: number) else { return }
          streamEnded(stream)
        }))
  }

  /// The stream at a location if it is still the one numbered `number`.
  private func stream(at location: DatasyncPath, number: UInt64) -> Stream? {
    guard let stream = streams[location], stream.number == number else { return nil }
    return stream
  }

  private func closeStream(at location: DatasyncPath) {
    streams.removeValue(forKey: location)?.task?.cancel()
  }

  private func receive(_ data: Data, on stream: Stream) {
    stream.lastActivity = .now()
    guard stream.status == 200 else {
      if stream.errorBody.count < 4096 { stream.errorBody += data.prefix(4096) }
      return
    }
    let events: [ServerSentEvent]
    do {
      events = try stream.parser.parse(data)
    } catch {
      return loseConnection()
    }
    for event in events {
      guard streams[stream.location] === stream else { return }
      let decoded: RemoteStreamEvent
      do {
        decoded = try RemoteStreamEvent(event, at: stream.location)
      } catch {
        return loseConnection()
      }
      handle(decoded, on: stream)
    }
  }

  private func handle(_ event: RemoteStreamEvent, on stream: Stream) {
    switch event {
    case .keepAlive:
      break
    case .put(let path, let value) where !stream.hasStarted:
      guard path == stream.location else { return loseConnection() }
      stream.hasStarted = true
      failures = 0
      if let write = inFlightWrite, covers(stream.location, write),
        Self.value(value, at: stream.location, includes: write)
      {
        inFlight?.coveringStreamStarted = true
      }
      deliver(.listenData(path, value))
    case .put, .patch:
      guard stream.hasStarted else { return loseConnection() }
      let operation: WriteOperation
      switch event {
      case .put(let path, let value): operation = .set(path, value)
      case .patch(let path, let entries): operation = .merge(path, entries)
      default: return
      }
      if let write = inFlightWrite, Self.overlaps(operation.path, write.path) {
        inFlight?.announced.append((stream.location, operation))
      }
      deliver(.changed(operation))
    case .cancel(let reason):
      closeStream(at: stream.location)
      deliver(
        .revoked(
          stream.location,
          WebcomError(
            .permissionDenied,
            "the server stopped sending \(stream.location.string): \(reason)")))
    case .authenticationRevoked:
      token = nil
      deliver(.authenticationChanged(nil))
      loseConnection()
    }
  }

  /// Revokes the listen of a stream the server answered with something else than an event
  /// stream (a server that ignores `Accept: text/event-stream` answers with the value once):
  /// listening there cannot work.
  private func notAStream(_ stream: Stream, type: String) {
    closeStream(at: stream.location)
    deliver(
      .revoked(
        stream.location,
        WebcomError(
          .decodingFailed,
          "the server answered the streaming read of \(stream.location.string) with \(type), "
            + "not text/event-stream: it does not speak the streaming protocol")))
  }

  private func streamEnded(_ stream: Stream) {
    streams[stream.location] = nil
    switch stream.status {
    case 200, 0, 500...:
      loseConnection()
    default:
      let code = RemoteAnswer.code(of: stream.status)
      deliver(
        .revoked(
          stream.location,
          WebcomError(
            code,
            "the server refused to stream \(stream.location.string) (HTTP \(stream.status)"
              + "\(RemoteAnswer.reason(in: stream.errorBody)))")))
    }
  }

  // MARK: Requests

  /// The write in flight, if the request in flight is one.
  private var inFlightWrite: WriteOperation? {
    guard inFlight != nil, case .write(_, let operation)? = pipeline.first else { return nil }
    return operation
  }

  /// Whether a stream at `location` announces (part of) a write.
  private func covers(_ location: DatasyncPath, _ write: WriteOperation) -> Bool {
    Self.overlaps(location, write.path)
  }

  private static func overlaps(_ lhs: DatasyncPath, _ rhs: DatasyncPath) -> Bool {
    lhs.isAncestorOrSelf(of: rhs) || rhs.isAncestor(of: lhs)
  }

  /// Sends the request at the head of the pipeline, when connected and none is in flight.
  private func sendNextRequest() {
    while phase == .connected, inFlight == nil, let request = pipeline.first {
      if case .signOut(let identifier) = request {
        pipeline.removeFirst()
        changeToken(to: nil)
        deliver(.acknowledged(identifier, announced: nil))
        continue
      }
      guard let http = RemoteRequest(request) else {
        pipeline.removeFirst()
        let url = endpoint.base.absoluteString
        let error =
          RemoteRequest.unsupportedError(request, url: url)
          ?? WebcomError(.internalError, "the remote back end cannot send this request")
        if let identifier = request.identifier {
          deliver(.rejected(identifier, error, current: nil))
        }
        continue
      }
      let requestToken: String?
      if case .authenticate(_, let candidate) = request {
        requestToken = candidate
      } else {
        requestToken = token
      }
      let urlRequest = http.urlRequest(
        endpoint: endpoint, token: requestToken, timeout: options.requestTimeout)
      inFlight = InFlight(task: nil)
      let task = transport.start(
        urlRequest,
        handlers: RemoteTransport.Handlers(
          response: { [weak self] response in self?.inFlight?.status = response.statusCode },
          data: { [weak self] data in self?.inFlight?.body += data },
          completion: { [weak self] error in self?.requestCompleted(error: error) }))
      inFlight = InFlight(task: task)
      requestCount += 1
      let number = requestCount
      cancel(task, after: options.requestTimeout) { [weak self] in
        self?.requestCount == number && self?.inFlight != nil
      }
    }
  }

  /// Sends `token` from now on; the open streams start again with it, so that the server checks
  /// them as the new identity (their fresh data raises only what differs).
  private func changeToken(to token: String?) {
    guard token != self.token else { return }
    self.token = token
    guard phase == .connected else { return }
    for location in streams.keys.sorted(by: { $0.string < $1.string }) {
      openStream(at: location)
    }
  }

  private func requestCompleted(error: (any Error)?) {
    guard let finished = inFlight, let request = pipeline.first else { return }
    inFlight = nil
    if finished.isAbandoned {
      pipeline.removeFirst()
      return sendNextRequest()
    }
    guard error == nil, finished.status != 0 else {
      loseConnection()
      return
    }
    let url = endpoint.base.absoluteString
    switch RemoteAnswer(request, status: finished.status, body: finished.body, url: url) {
    case .unavailable:
      loseConnection()
      return
    case .message(let message):
      pipeline.removeFirst()
      failures = 0
      if case .authenticated = message, case .authenticate(_, let accepted) = request {
        changeToken(to: accepted)
      }
      deliverAnswer(acknowledgement(message, finished))
    }
    sendNextRequest()
  }

  /// The acknowledgement of a write as the client must receive it (see the type's
  /// documentation); other messages unchanged.
  private func acknowledgement(_ message: BackEndMessage, _ finished: InFlight) -> BackEndMessage {
    guard phase == .connected, case .acknowledged(let identifier, let announced?) = message
    else { return message }
    let covering = streams.values.filter { $0.hasStarted && covers($0.location, announced) }
    guard !covering.isEmpty else { return message }
    let written: JSONValue
    if case .set(_, let value) = announced { written = value } else { written = .null }
    if finished.coveringStreamStarted {
      return .acknowledgedAsChanged(identifier, written: written)
    }
    let after = announced.applyingOptimistically(to: .null)
    for stream in covering {
      let expected = announced.messages(to: [stream.location], in: after)
      for case .changed(let operation) in expected
      where finished.announced.contains(where: {
        $0.location == stream.location && Self.same($0.operation, operation)
      }) {
        return .acknowledgedAsChanged(identifier, written: written)
      }
    }
    return message
  }

  /// Whether a location's value already holds what a write writes inside it (false for an
  /// increment, whose result is unknown until its answer).
  private static func value(
    _ value: JSONValue, at location: DatasyncPath, includes write: WriteOperation
  ) -> Bool {
    let tree = JSONValue.null.setting(value, at: location.keys)
    let written: JSONValue
    switch write {
    case .increment:
      return false
    case .compareAndSet(let path, _, let newValue):
      written = WriteOperation.set(path, newValue).applyingOptimistically(to: tree)
    default:
      written = write.applyingOptimistically(to: tree)
    }
    return written.value(at: location.keys) == value
  }

  /// Whether two writes write the same data at the same place.
  private static func same(_ lhs: WriteOperation, _ rhs: WriteOperation) -> Bool {
    switch (lhs, rhs) {
    case (.set(let path, let value), .set(let otherPath, let otherValue)):
      return path == otherPath && value == otherValue
    case (.merge(let path, let entries), .merge(let otherPath, let otherEntries)):
      return path == otherPath && entries.count == otherEntries.count
        && zip(entries, otherEntries).allSatisfy { $0.keys == $1.keys && $0.value == $1.value }
    default:
      return false
    }
  }
}
