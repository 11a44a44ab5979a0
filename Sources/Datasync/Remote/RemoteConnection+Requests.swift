import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RemoteConnection {
  // MARK: Requests

  /// The write in flight, if the request in flight is one.
  var inFlightWrite: WriteOperation? {
    guard inFlight != nil, case .write(_, let operation)? = pipeline.first else { return nil }
    return operation
  }

  /// Whether a stream at `location` announces (part of) a write.
  func covers(_ location: DatasyncPath, _ write: WriteOperation) -> Bool {
    location.overlaps(write.path)
  }

  /// Whether a stream that announces (part of) a write has not brought its location's value
  /// yet. The write then waits for it: sent meanwhile, its answer could arrive before a value
  /// taken before it, and the client would show the write, take it back with that value, and
  /// show it again with its announcement. Sent after, the value comes first and the
  /// announcement follows it on the stream.
  func waitsForStreams(_ write: WriteOperation) -> Bool {
    streams.values.contains { !$0.hasStarted && covers($0.location, write) }
  }

  /// Sends the request at the head of the pipeline, when connected and none is in flight (a
  /// write also waits for the streams that announce it, see ``waitsForStreams(_:)``). Call it
  /// again whenever one of these conditions may have changed.
  func sendNextRequest() {
    while phase == .connected, inFlight == nil, let request = pipeline.first {
      if case .write(_, let operation) = request, waitsForStreams(operation) { return }
      if travelsOnSession(request) {
        guard sendOnSession(request) else { return }
        continue
      }
      if case .signOut(let identifier) = request {
        pipeline.removeFirst()
        changeToken(to: nil)
        deliver(.acknowledged(identifier, announced: nil))
        continue
      }
      guard let http = RemoteRequest(request) else {
        pipeline.removeFirst()
        if let identifier = request.identifier {
          let error = WebcomError(.internalError, "the remote back end cannot send this request")
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
  func changeToken(to token: String?) {
    guard token != self.token else { return }
    self.token = token
    guard phase == .connected else { return }
    for location in streams.keys.sortedByString() {
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
      failures = 0
      if case .write(_, let operation) = request, waitsForStreams(operation) {
        inFlight = finished
        inFlight?.parkedAnswer = message
        return
      }
      pipeline.removeFirst()
      if case .authenticated = message, case .authenticate(_, let accepted) = request {
        changeToken(to: accepted)
      }
      deliverAnswer(message, of: finished)
    }
    sendNextRequest()
  }

  /// Goes on with the pipeline after the streams changed (one started or closed, or all
  /// closed at a disconnection): the answer parked until the streams announcing its write
  /// brought their values (``InFlight/parkedAnswer``) reaches the client once none waits, then
  /// the next request is sent.
  func resumeRequests() {
    if let finished = inFlight, let answer = finished.parkedAnswer, let write = inFlightWrite,
      !waitsForStreams(write)
    {
      inFlight = nil
      pipeline.removeFirst()
      deliverAnswer(answer, of: finished)
    }
    sendNextRequest()
  }

  /// Delivers the answer of the request that was in flight (see ``deliverAnswer(_:)``). The
  /// changes held while an increment was in flight go around it: those announced before the
  /// increment's own announcement (the first that sets what it wrote) first, the answer in
  /// place of that announcement, the later ones after it (all before it when none is its own).
  func deliverAnswer(_ message: BackEndMessage, of finished: InFlight) {
    let held = finished.held
    guard !held.isEmpty else { return deliverAnswer(acknowledgement(message, finished)) }
    var own: Int?
    if case .acknowledged(_, let announced?) = message {
      own = held.firstIndex { Self.same($0, announced) }
    }
    for change in held[..<(own ?? held.count)] { deliver(.changed(change)) }
    deliverAnswer(message)
    guard let own else { return }
    for change in held[(own + 1)...] { deliver(.changed(change)) }
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
  static func value(
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
