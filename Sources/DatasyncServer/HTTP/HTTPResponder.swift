import Datasync
import Foundation

/// Answers one request: once, with a plain response or by opening an event stream.
///
/// Thread-safe: a handler may answer from any thread, at any time after ``HTTPHandler/handle(_:responder:)``
/// returned (the database answers on its own queues). Only the first answer counts; later
/// ones are ignored (``respond(_:)`` returns false, ``openEventStream(headers:onClose:)``
/// throws). A responder released without an answer answers `500` with a JSON error, so a
/// connection never waits forever for a forgotten request. Answers to a connection that has
/// since closed are dropped.
public final class HTTPResponder: @unchecked Sendable {
  private let mailbox: LoopMailbox
  private let descriptor: Int32
  private let connectionID: UInt64
  private let requestNumber: UInt64
  private let streamsChunked: Bool
  private let queueLimit: Int

  /// Protects `answered`.
  private let lock = NSLock()
  private var answered = false

  init(
    mailbox: LoopMailbox, descriptor: Int32, connectionID: UInt64, requestNumber: UInt64,
    streamsChunked: Bool, queueLimit: Int
  ) {
    self.mailbox = mailbox
    self.descriptor = descriptor
    self.connectionID = connectionID
    self.requestNumber = requestNumber
    self.streamsChunked = streamsChunked
    self.queueLimit = queueLimit
  }

  deinit {
    if !answered {
      send(
        .jsonError(.internalServerError, message: "the request handler did not answer"))
    }
  }

  /// Whether the request has been answered.
  public var isAnswered: Bool { lock.withLock { answered } }

  /// Answers with a plain response (see ``HTTPResponse`` for the headers the server sets).
  ///
  /// - Returns: Whether this was the first answer (later answers are ignored).
  @discardableResult
  public func respond(_ response: HTTPResponse) -> Bool {
    guard claim() else { return false }
    send(response)
    return true
  }

  /// Answers with a Server-Sent Events stream: a `200` response with
  /// `Content-Type: text/event-stream` and `Cache-Control: no-cache` (unless `headers` set them),
  /// whose events the returned stream sends. The connection serves nothing else afterwards and
  /// closes when the stream ends. For a `HEAD` request only the head is sent and the stream ends
  /// at once with ``HTTPEventStream/CloseReason/peerClosed``.
  ///
  /// - Parameters:
  ///   - headers: Extra response headers.
  ///   - onClose: Called once when the stream ends, with the reason (see ``HTTPEventStream``).
  /// - Throws: `invalidArgument` when a header is malformed (see ``HTTPResponse``; the request
  ///   stays unanswered) or the request was already answered.
  public func openEventStream(
    headers: HTTPHeaders = [:],
    onClose: @escaping @Sendable (HTTPEventStream.CloseReason) -> Void = { _ in }
  ) throws(WebcomError) -> HTTPEventStream {
    if let problem = ResponseEncoding.problem(with: HTTPResponse(headers: headers)) {
      throw WebcomError(.invalidArgument, problem)
    }
    guard claim() else {
      throw WebcomError(.invalidArgument, "the request was already answered")
    }
    let stream = HTTPEventStream(
      mailbox: mailbox, descriptor: descriptor, connectionID: connectionID,
      isChunked: streamsChunked, queueLimit: queueLimit, onClose: onClose)
    let accepted = mailbox.execute { [descriptor, connectionID, requestNumber] loop in
      if let connection = loop.connection(descriptor, id: connectionID) {
        connection.openStream(stream, headers: headers, requestNumber: requestNumber)
      } else {
        stream.finish(loop.reasonForMissingConnection)
      }
    }
    if !accepted { stream.finish(.serverStopped) }
    return stream
  }

  private func claim() -> Bool {
    lock.withLock {
      guard !answered else { return false }
      answered = true
      return true
    }
  }

  private func send(_ response: HTTPResponse) {
    mailbox.execute { [descriptor, connectionID, requestNumber] loop in
      loop.connection(descriptor, id: connectionID)?.deliver(
        response, requestNumber: requestNumber)
    }
  }
}
