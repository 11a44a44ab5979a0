#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One accepted connection: its buffers, its parser and where it stands in the request-response
/// cycle. Confined to the loop thread.
///
/// A connection handles one request at a time: it parses until a request is complete, hands it
/// to the handler, and parses the next (pipelined) request only once this one is answered, so
/// answers leave in request order. While a request is being handled, further input is kept up
/// to a bound, then the socket is no longer read (the peer waits). After an answer that ends
/// the connection, it half-closes and lingers briefly, reading and dropping what the peer still
/// sends, so that the peer reads the answer rather than a reset.
final class HTTPConnection {
  private enum Phase {
    /// Reading (or parsing buffered) request bytes.
    case reading
    /// The handler has a request; its answer is awaited.
    case awaitingResponse(number: UInt64, keepAlive: Bool, isHead: Bool, version: String)
    /// The answer is an event stream (chunked, or delimited by the end of the connection).
    case streaming(HTTPEventStream, chunked: Bool)
    /// The last answer is queued; close once it is written.
    case closingAfterOutput
    /// Written and half-closed: dropping input until the peer closes or the deadline.
    case lingering(until: UInt64)
    case closed
  }

  let descriptor: Int32
  let id: UInt64
  private unowned let loop: ServerLoop
  private var input = ByteQueue(retainedCapacity: 16_384)
  private var output = ByteQueue(retainedCapacity: 65_536)
  private var parser: HTTPRequestParser
  private var phase = Phase.reading
  private var requestCount: UInt64 = 0
  /// When the first byte of the request being read arrived.
  private var requestStartedAt: UInt64?
  /// When bytes last moved in either direction (or the connection opened).
  private var lastActivity: UInt64
  private var isInputClosed = false
  private var watchesReading = true
  private var watchesWriting = false

  init(descriptor: Int32, id: UInt64, remoteAddress: String, loop: ServerLoop) {
    self.descriptor = descriptor
    self.id = id
    self.loop = loop
    parser = HTTPRequestParser(limits: loop.settings.parserLimits, remoteAddress: remoteAddress)
    lastActivity = loop.now
  }

  // MARK: - Socket events

  /// Handles readiness reported by the poller.
  func handle(readable: Bool, writable: Bool) {
    if writable { flush() }
    if readable, !isClosed { readAvailable() }
  }

  private var isClosed: Bool {
    if case .closed = phase { return true }
    return false
  }

  private func readAvailable() {
    switch SocketSystem.readSome(descriptor, into: loop.readBuffer) {
    case .bytes(let count):
      lastActivity = loop.now
      switch phase {
      case .reading, .awaitingResponse:
        input.append(UnsafeRawBufferPointer(rebasing: loop.readBuffer[..<count]))
      case .streaming, .closingAfterOutput, .lingering, .closed:
        break  // Nothing more is parsed: the bytes are dropped.
      }
      if case .reading = phase { processInput() }
      flush()
    case .wouldBlock:
      return
    case .endOfInput:
      inputEnded()
    case .failed:
      close(.peerClosed)
    }
  }

  private func inputEnded() {
    guard !isInputClosed else {
      // Reading is off once the input has ended: being woken to read again means the socket
      // hung up or failed, so nothing more can be written either.
      close(.peerClosed)
      return
    }
    isInputClosed = true
    switch phase {
    case .reading:
      processInput()
      flush()
    case .awaitingResponse, .closingAfterOutput:
      updateInterest()
    case .streaming, .lingering:
      close(.peerClosed)
    case .closed:
      break
    }
  }

  // MARK: - Requests

  /// Parses buffered input while the connection is free to take a request.
  private func processInput() {
    while case .reading = phase {
      switch parser.parse(&input) {
      case .needMoreData:
        if requestStartedAt == nil && !(parser.isIdle && input.isEmpty) {
          requestStartedAt = loop.now
        }
        if isInputClosed {
          phase = .closingAfterOutput
        }
        return
      case .continueExpected:
        if requestStartedAt == nil { requestStartedAt = loop.now }
        output.append(ResponseEncoding.continueHead)
      case .request(let request, let keepAlive):
        requestStartedAt = nil
        requestCount += 1
        phase = .awaitingResponse(
          number: requestCount, keepAlive: keepAlive, isHead: request.method == "HEAD",
          version: request.version)
        let responder = HTTPResponder(
          mailbox: loop.mailbox, descriptor: descriptor, connectionID: id,
          requestNumber: requestCount, streamsChunked: request.version == "HTTP/1.1",
          queueLimit: loop.settings.eventStreamQueueLimit)
        loop.handler.handle(request, responder: responder)
      case .failure(let status, let message):
        answerError(status, message)
        return
      }
    }
  }

  /// Queues an error answer; the connection closes after it.
  private func answerError(_ status: HTTPStatus, _ message: String) {
    requestStartedAt = nil
    input.discardAll()
    ResponseEncoding.encode(
      .jsonError(status, message: message), connection: .close, omitBody: false, into: &output)
    phase = .closingAfterOutput
  }

  /// Sends the answer to request `requestNumber` (a task from its responder).
  func deliver(_ response: HTTPResponse, requestNumber: UInt64) {
    guard case .awaitingResponse(let number, let keepAlive, let isHead, let version) = phase,
      number == requestNumber
    else { return }
    var response = response
    if let problem = ResponseEncoding.problem(with: response) {
      response = .jsonError(.internalServerError, message: problem)
    }
    let staysOpen = keepAlive && !ResponseEncoding.asksToClose(response.headers)
    let header: ResponseEncoding.ConnectionHeader =
      !staysOpen ? .close : version == "HTTP/1.0" ? .keepAlive : .none
    ResponseEncoding.encode(response, connection: header, omitBody: isHead, into: &output)
    lastActivity = loop.now
    if staysOpen {
      phase = .reading
      processInput()
    } else {
      phase = .closingAfterOutput
      input.discardAll()
    }
    flush()
  }

  // MARK: - Event streams

  /// Starts the event-stream answer to request `requestNumber` (a task from its responder).
  func openStream(_ stream: HTTPEventStream, headers: HTTPHeaders, requestNumber: UInt64) {
    guard case .awaitingResponse(let number, _, let isHead, let version) = phase,
      number == requestNumber
    else {
      stream.finish(.peerClosed)
      return
    }
    let chunked = version == "HTTP/1.1" && !isHead
    output.append(ResponseEncoding.eventStreamHead(extraHeaders: headers, chunked: chunked))
    input.discardAll()
    if isHead {
      phase = .closingAfterOutput
      stream.finish(.peerClosed)
    } else {
      phase = .streaming(stream, chunked: chunked)
      output.append(stream.takePending())
    }
    flush()
  }

  /// Writes what the stream has queued (a task from the stream).
  func flushStream(_ stream: HTTPEventStream) {
    guard case .streaming(let current, _) = phase, current === stream else { return }
    output.append(stream.takePending())
    flush()
  }

  /// Ends the stream at its owner's request: queued events, the end of the body, then close.
  func endStream(_ stream: HTTPEventStream) {
    guard case .streaming(let current, let chunked) = phase, current === stream else {
      stream.finish(.peerClosed)
      return
    }
    output.append(stream.takePending())
    if chunked { output.append(ResponseEncoding.lastChunk) }
    phase = .closingAfterOutput
    stream.finish(.closedByOwner)
    flush()
  }

  /// Closes the connection of a stream whose reader is too slow (a task from the stream).
  func abortStream(_ stream: HTTPEventStream) {
    guard case .streaming(let current, _) = phase, current === stream else {
      stream.finish(.peerClosed)
      return
    }
    close(.slowReader)
  }

  // MARK: - Output

  /// Writes queued output until the socket is full.
  private func flush() {
    while !output.isEmpty {
      switch output.withQueuedBytes({
        SocketSystem.writeSome(descriptor, from: UnsafeRawBufferPointer($0))
      }) {
      case .bytes(let count):
        output.consume(count)
        lastActivity = loop.now
      case .wouldBlock:
        updateInterest()
        reportUnwritten()
        return
      case .endOfInput, .failed:
        close(.peerClosed)
        return
      }
    }
    reportUnwritten()
    if case .closingAfterOutput = phase {
      startLingering()
    } else {
      updateInterest()
    }
  }

  private func reportUnwritten() {
    if case .streaming(let stream, _) = phase { stream.setUnwrittenCount(output.count) }
  }

  /// Half-closes after the last answer and drops input for a short while, so the peer reads the
  /// answer instead of a reset caused by unread input.
  private func startLingering() {
    guard !isInputClosed else {
      close(.peerClosed)
      return
    }
    _ = shutdown(descriptor, Int32(SHUT_WR))
    input.discardAll()
    phase = .lingering(until: loop.now + loop.settings.lingerTimeout)
    updateInterest()
  }

  private func updateInterest() {
    let reading: Bool
    switch phase {
    case .reading, .streaming, .lingering: reading = !isInputClosed
    case .awaitingResponse: reading = !isInputClosed && input.count < loop.settings.maxBufferedInput
    case .closingAfterOutput: reading = !isInputClosed
    case .closed: return
    }
    let writing = !output.isEmpty
    guard reading != watchesReading || writing != watchesWriting else { return }
    watchesReading = reading
    watchesWriting = writing
    loop.watch(descriptor, readable: reading, writable: writing)
  }

  // MARK: - Timeouts and closing

  /// Applies the read, idle and linger timeouts (called by the loop's periodic sweep).
  func checkTimeouts() {
    let now = loop.now
    switch phase {
    case .reading:
      if let startedAt = requestStartedAt {
        if now - startedAt > loop.settings.readTimeout {
          answerError(
            .requestTimeout, "the request was not received within the read timeout")
          flush()
        }
      } else if now - lastActivity > loop.settings.idleTimeout {
        close(.peerClosed)
      }
    case .closingAfterOutput:
      if now - lastActivity > loop.settings.idleTimeout { close(.peerClosed) }
    case .lingering(let deadline):
      if now > deadline { close(.peerClosed) }
    case .awaitingResponse, .streaming, .closed:
      break
    }
  }

  /// Closes the socket at once, dropping queued output; a stream in progress ends with
  /// `reason`.
  func close(_ reason: HTTPEventStream.CloseReason) {
    let stream: HTTPEventStream?
    switch phase {
    case .closed: return
    case .streaming(let current, _): stream = current
    default: stream = nil
    }
    phase = .closed
    input.discardAll()
    output.discardAll()
    loop.remove(self)
    stream?.finish(reason)
  }
}
