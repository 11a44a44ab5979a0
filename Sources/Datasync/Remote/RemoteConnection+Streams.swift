import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

extension RemoteConnection {
  // MARK: Listens

  /// Listens at a location: through the stream of a listened location above it if there is one,
  /// else through a stream of its own.
  func listen(at location: DatasyncPath) {
    listened.insert(location)
    if !hasListenedAncestor(location) { openStream(at: location) }
  }

  /// Stops listening at a location: its stream closes, and the listens below it that no other
  /// listen covers get streams of their own.
  func unlisten(at location: DatasyncPath) {
    guard listened.remove(location) != nil else { return }
    closeStream(at: location)
    defer { resumeRequests() }
    guard !hasListenedAncestor(location) else { return }
    let uncovered = listened.filter { listened in
      location.isAncestor(of: listened) && !hasListenedAncestor(listened)
    }
    for path in uncovered.sortedByString() { openStream(at: path) }
  }

  /// Whether a location lies under a listened one.
  private func hasListenedAncestor(_ location: DatasyncPath) -> Bool {
    var ancestor = location.parent
    while let path = ancestor {
      if listened.contains(path) { return true }
      ancestor = path.parent
    }
    return false
  }

  /// Forgets the listens at or below a location the server stopped serving (the client revokes
  /// them all), closing their streams.
  private func forgetListens(atOrBelow location: DatasyncPath) {
    listened = listened.filter { !location.isAncestorOrSelf(of: $0) }
    closeStreams { location.isAncestorOrSelf(of: $0) }
    resumeRequests()
  }

  /// Closes the streams whose location matches.
  private func closeStreams(where matches: (DatasyncPath) -> Bool) {
    for path in streams.keys where matches(path) { closeStream(at: path) }
  }

  // MARK: Streams

  func openStream(at location: DatasyncPath) {
    closeStream(at: location)
    streamCount += 1
    let number = streamCount
    let stream = Stream(location: location, number: number)
    streams[location] = stream
    stream.task = transport.start(
      eventStreamRequest(endpoint.url(for: location, token: token)),
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

  /// A streaming `GET` of a URL (`Accept: text/event-stream`), given up after the idle timeout
  /// without a byte.
  func eventStreamRequest(_ url: URL) -> URLRequest {
    var request = URLRequest(url: url, timeoutInterval: options.idleTimeout)
    request.httpMethod = "GET"
    request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
    return request
  }

  /// The stream at a location if it is still the one numbered `number`.
  private func stream(at location: DatasyncPath, number: UInt64) -> Stream? {
    guard let stream = streams[location], stream.number == number else { return nil }
    return stream
  }

  func closeStream(at location: DatasyncPath) {
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
      closeStreams { stream.location.isAncestor(of: $0) }
      resumeRequests()
    case .put, .patch:
      guard stream.hasStarted else { return loseConnection() }
      let operation: WriteOperation
      switch event {
      case .put(let path, let value): operation = .set(path, value)
      case .patch(let path, let entries): operation = .merge(path, entries)
      default: return
      }
      if let write = inFlightWrite, operation.path.overlaps(write.path) {
        inFlight?.announced.append((stream.location, operation))
        if case .increment = write {
          inFlight?.held.append(operation)
          return
        }
      }
      deliver(.changed(operation))
    case .cancel(let reason):
      forgetListens(atOrBelow: stream.location)
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
    forgetListens(atOrBelow: stream.location)
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
      forgetListens(atOrBelow: stream.location)
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
}
