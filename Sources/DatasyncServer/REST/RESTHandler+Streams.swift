import Datasync
import Synchronization

/// Streaming reads: `GET` with `Accept: text/event-stream`.
extension RESTHandler {
  /// Starts a listener at the request's location and answers once it has the data: with an
  /// event stream whose first event is the `put` of the whole value (of its first level with
  /// `shallow=true`: see ``HostedListener``), or with the refusal (401, 403). The stream ends
  /// with the listener, and the listener with the stream.
  func openStream(
    _ request: RESTRequest, on database: DatasyncDatabase, responder: HTTPResponder
  ) throws(RESTError) {
    if request.parameters.query != nil {
      throw RESTError(
        .badRequest,
        "a streaming read follows a whole location: orderBy is not supported on streams")
    }
    let slot = StreamSlot()
    let streams = self.streams
    let listener = HostedListener(
      database: database, path: request.path, token: request.token,
      startsShallow: request.parameters.isShallow,
      onStart: { result in
        switch result {
        case .failure(let refusal):
          responder.respond(RESTError(refusal).response)
        case .success(let first):
          slot.open(responder: responder, first: first, streams: streams)
        }
      },
      send: { event in slot.send(event) },
      onEnd: { slot.close() })
    slot.listener.withLock { $0 = listener }
    listener.start()
  }
}

/// The event stream of a streaming read, once open, and the listener feeding it.
///
/// The listener calls in on its own serial queue; the stream's end is reported on the loop
/// thread. Sending to a stream that ended (its reader was too slow, or went away) closes the
/// listener. The slot and its listener refer to each other until either ends.
private final class StreamSlot: Sendable {
  let listener = Mutex<HostedListener?>(nil)
  private let stream = Mutex<HTTPEventStream?>(nil)
  private let registration = Mutex<UInt64?>(nil)

  func open(responder: HTTPResponder, first: HostedEvent, streams: StreamRegistry) {
    do {
      let opened = try responder.openEventStream { [self] _ in
        disconnect()
        if let identifier = registration.withLock({ $0 }) { streams.remove(identifier) }
      }
      stream.withLock { $0 = opened }
      let identifier = streams.add(opened) { [self] in disconnect() }
      registration.withLock { $0 = identifier }
      if !opened.isOpen { streams.remove(identifier) }
      try opened.send(event: first.name, data: first.data)
    } catch {
      disconnect()
    }
  }

  func send(_ event: HostedEvent) {
    guard let stream = stream.withLock({ $0 }) else { return }
    do {
      try stream.send(event: event.name, data: event.data)
    } catch {
      disconnect()
    }
  }

  /// Closes the stream after the listener ended.
  func close() {
    listener.withLock { $0 = nil }
    stream.withLock { $0 }?.close()
  }

  /// Closes the listener after the stream ended.
  private func disconnect() {
    let closing = listener.withLock { listener in
      defer { listener = nil }
      return listener
    }
    closing?.close()
  }
}
