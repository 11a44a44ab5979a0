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
/// **Listens** are streaming `GET`s (`Accept: text/event-stream`): the first `put` is the
/// location's value, later `put`s and `patch`es are changes (their paths made absolute),
/// `cancel` revokes the listen, `auth_revoked` ends the authentication (the connection is then
/// renewed without credential). A stream refused with `401`/`403` revokes its listen with
/// `permissionDenied`; with another client error, with `invalidArgument`. One stream serves
/// every listen at or below its location: a listen under a listened location opens nothing, a
/// stream whose location comes under a new listen closes once that listen's stream brought its
/// value, and the listens a closed stream served get streams of their own.
///
/// **Requests** (writes, reads, authentications) go through one ordered pipeline, one at a time,
/// as ``RemoteRequest`` describes, each answered by its HTTP answer (``RemoteAnswer``). A write
/// is sent only once every stream that announces it brought its location's value, so that the
/// value holds what came before the write and the write's announcement follows it. A request
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
/// what the server wrote, and the announcement that follows on the streams changes nothing. An
/// increment's result is unknown until its answer: the changes announced where it writes wait
/// for that answer, which takes the place of the first of them that sets what it wrote. An
/// answer that arrives while a stream announcing the write has not brought its value (a listen
/// opened after the write was sent) waits for that value, which may have been taken before the
/// write: delivered after it, the acknowledgement cannot be undone by it.
///
/// **Disconnection operations** travel in the same pipeline on the server's session extension,
/// whose stream stays open while connected (the server runs them when it drops), as
/// ``RemoteSession`` describes; a server without it refuses them with `invalidArgument`.
///
/// **Authentication.** The token the back end last accepted is sent (`auth=`) with every request
/// and stream, including those sent again after a reconnection. Authentications travel on the
/// session (opening it if needed), which answers with the identity the server's rules see, and
/// so do sign-outs while it is open: the session stands for the same token as the REST requests
/// (disconnection operations run as that identity). A server without the session extension is
/// asked with a REST request, and as the REST protocol does not tell who a token stands for, an
/// accepted token then gets the stand-in identity ``tokenIdentity(for:)``.
///
/// Thread safety: `lock` protects the receiver of the back end's messages; every other piece of
/// state is only touched on `queue`.
final class RemoteConnection: BackEndConnection, @unchecked Sendable {
  /// One listened location's stream.
  final class Stream {
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
  struct InFlight {
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
    /// For an increment, whose result is unknown until its answer: the changes the streams
    /// announced where it writes meanwhile, held until then (see ``deliverAnswer(_:of:)``).
    var held: [WriteOperation] = []
    /// The answer of a write that arrived while a stream announcing the write had not brought
    /// its location's value (a listen that started after the write was sent): the write stays
    /// in flight until that value arrived, so that a value taken before the write cannot
    /// follow the acknowledgement (see ``resumeRequests()``).
    var parkedAnswer: BackEndMessage?
  }

  enum Phase {
    /// Not connected, and not trying to.
    case idle
    /// Checking that the server answers.
    case checking
    /// Waiting before the next check.
    case waiting
    case connected
  }

  let endpoint: RemoteEndpoint
  /// Why the URL cannot be used (the connection then never connects, and the client fails
  /// every request with it), nil when it can.
  let configurationError: WebcomError?
  let options: RemoteOptions
  private let queue: DispatchQueue
  let transport: RemoteTransport
  /// Protects `receiver`.
  private let lock = NSLock()
  private var receiver: (@Sendable ([BackEndMessage]) -> Void)?
  /// Everything below is touched only on `queue` (in this file and its extensions).
  private var wantsConnection = false
  private var isClosed = false
  var phase = Phase.idle
  /// Changes at each attempt and each loss, so that the callbacks of an older attempt do nothing.
  private var attempt = 0
  /// The failed attempts since the last successful exchange.
  var failures = 0
  var streams: [DatasyncPath: Stream] = [:]
  /// The locations the client listens to since the connection opened; those under another one
  /// have no stream of their own once that one's stream started.
  var listened: Set<DatasyncPath> = []
  var streamCount: UInt64 = 0
  var pipeline: [ClientRequest] = []
  var inFlight: InFlight?
  /// The number of requests sent, to tell whether the one in flight is still a given one.
  var requestCount: UInt64 = 0
  /// Answers that arrived while disconnected, delivered after the next `connected`.
  private var deferredAnswers: [BackEndMessage] = []
  /// The token the back end last accepted.
  var token: String?
  /// The session, for what the REST protocol cannot carry (see ``RemoteSession``).
  let session = RemoteSession()
  private var idleTimer: DispatchSourceTimer?
  private var reconnectionTimer: DispatchWorkItem?
  /// The response head of the check in progress.
  private var checkResponse: HTTPURLResponse?

  /// A connection to the database at `url`.
  init(url: URL, namespace: String?, options: RemoteOptions, label: String) {
    do {
      endpoint = try RemoteEndpoint(url: url, namespace: namespace)
      configurationError = nil
    } catch {
      endpoint = RemoteEndpoint(unchecked: url, namespace: namespace)
      configurationError = error
    }
    self.options = options
    queue = DispatchQueue(label: "datasync.remote.\(label)")
    transport = RemoteTransport(queue: queue)
  }

  /// The identity an accepted token stands for, as far as the client can tell without the
  /// session extension: the REST protocol does not say, so it is `uid` the token's digest (the
  /// same token, the same identity) and `provider` `"token"`.
  static func tokenIdentity(for token: String) -> DatasyncAuthentication {
    DatasyncAuthentication(
      uid: String(JSONValue.string(token).digest, radix: 16), provider: "token")
  }

  func open(receiver: @escaping @Sendable ([BackEndMessage]) -> Void) {
    lock.withLock { self.receiver = receiver }
    setConnected(true)
  }

  func send(_ request: ClientRequest) {
    queue.async { [self] in
      guard !isClosed else { return }
      switch request {
      case .listen(let location):
        if phase == .connected { listen(at: location) }
      case .unlisten(let location):
        unlisten(at: location)
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
    guard wantsConnection, configurationError == nil, phase == .idle || phase == .waiting else {
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
  func cancel(
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
    if session.hasBeenOpen { openSession() }
    // Told of the connection, the client renews its listens through `send`, which enqueues
    // them: the requests start one turn of the queue later, once those streams are open, so
    // that the writes under them wait for their values.
    let current = attempt
    queue.async { [self] in
      guard current == attempt, phase == .connected else { return }
      sendNextRequest()
    }
  }

  /// The connection is lost: the client is told, the streams close, and a new check follows
  /// after the backoff.
  func loseConnection() {
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
    listened = []
    inFlight?.held = []
    endSession()
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
    // Without streams, a parked answer waits for nothing: it reaches the client after the next
    // `connected`.
    resumeRequests()
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
    if session.isSilent(longerThan: timeout, now: limit) { loseConnection() }
  }

  func deliver(_ message: BackEndMessage) {
    guard let receiver = lock.withLock({ receiver }) else { return }
    receiver([message])
  }

  /// Delivers an answer now when connected, else after the next `connected`.
  func deliverAnswer(_ message: BackEndMessage) {
    if phase == .connected {
      deliver(message)
    } else {
      deferredAnswers.append(message)
    }
  }
}
