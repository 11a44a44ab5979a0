import Datasync
import Foundation

/// A Server-Sent Events response in progress: the connection stays open and each ``send(event:data:id:)``
/// writes one event to it as soon as the socket accepts it.
///
/// Obtained from ``HTTPResponder/openEventStream(headers:onClose:)``. Thread-safe: events may be
/// sent from any thread; events sent from one thread arrive in the order sent.
///
/// **Bounded queue.** Bytes sent and not yet accepted by the peer's socket are counted; when a
/// send would take that count past the server's
/// ``HTTPServer/Configuration/eventStreamQueueLimit``, the reader is too slow: the stream is
/// closed at once (its queued bytes dropped), so it never holds more memory than the limit (or
/// one event) and never delays other connections; the client is expected to reconnect and
/// resynchronise. An event larger than the limit is still accepted when nothing is queued (the
/// first `put` of a large location), else it could never be delivered.
///
/// **End.** A stream ends exactly once — closed by its owner (``close()``: queued events are
/// still delivered, then the body is terminated and the connection closed), by the peer (the
/// connection closed or failed), for a slow reader, or by ``HTTPServer/stop()`` — and the
/// `onClose` callback given when it was opened is then called once with the
/// ``CloseReason``, on the server's loop thread (or on the caller's thread when the server had
/// already stopped); it must not block. Sending after the end throws.
///
/// ```swift
/// let stream = try responder.openEventStream { reason in print("stream ended: \(reason)") }
/// try stream.send(event: "put", data: #"{"path":"/","data":null}"#)
/// try stream.sendComment("keep-alive")
/// stream.close()
/// ```
public final class HTTPEventStream: @unchecked Sendable {
  /// Why an event stream ended.
  public enum CloseReason: Sendable, Hashable {
    /// The owner called ``HTTPEventStream/close()``.
    case closedByOwner
    /// The peer closed the connection, or it failed.
    case peerClosed
    /// The peer read too slowly: the queued bytes would have exceeded the limit.
    case slowReader
    /// The server stopped.
    case serverStopped
  }

  private enum State {
    case open
    /// Ended by a thread other than the loop, which has not yet reported it.
    case ending(CloseReason)
    case ended(CloseReason)
  }

  private let mailbox: LoopMailbox
  private let descriptor: Int32
  private let connectionID: UInt64
  private let isChunked: Bool
  private let queueLimit: Int

  /// Protects `state`, `pending`, `unwrittenCount`, `isFlushScheduled` and `onClose`.
  private let lock = NSLock()
  private var state = State.open
  /// Bytes sent and not yet handed to the connection.
  private var pending: [UInt8] = []
  /// Bytes handed to the connection and not yet written to its socket.
  private var unwrittenCount = 0
  private var isFlushScheduled = false
  private var onClose: (@Sendable (CloseReason) -> Void)?

  init(
    mailbox: LoopMailbox, descriptor: Int32, connectionID: UInt64, isChunked: Bool,
    queueLimit: Int, onClose: @escaping @Sendable (CloseReason) -> Void
  ) {
    self.mailbox = mailbox
    self.descriptor = descriptor
    self.connectionID = connectionID
    self.isChunked = isChunked
    self.queueLimit = queueLimit
    self.onClose = onClose
  }

  /// Whether the stream still accepts events.
  public var isOpen: Bool {
    lock.withLock {
      if case .open = state { return true }
      return false
    }
  }

  /// The number of bytes sent and not yet accepted by the peer's socket.
  public var queuedByteCount: Int { lock.withLock { pending.count + unwrittenCount } }

  /// Sends one event: an `event:` line (when `event` is given), an `id:` line (when `id` is
  /// given), one `data:` line per line of `data` (split at CRLF, CR or LF), then an empty line.
  ///
  /// - Throws: `invalidArgument` when `event` or `id` contains a line break (nothing is sent);
  ///   `disconnected` when the stream has ended, or when this event would exceed the queue
  ///   limit — the stream is then closed with ``CloseReason/slowReader``.
  public func send(event: String? = nil, data: String, id: String? = nil) throws(WebcomError) {
    try enqueue(EventStreamFrame.event(event, data: data, id: id))
  }

  /// Sends a comment line (`: text`), which clients ignore: a keep-alive that also detects a
  /// peer that went away. A multi-line text gives one comment line per line.
  ///
  /// - Throws: `disconnected`, as ``send(event:data:id:)``.
  public func sendComment(_ text: String = "") throws(WebcomError) {
    try enqueue(EventStreamFrame.comment(text))
  }

  /// Ends the stream: the events already sent are delivered, then the response ends and the
  /// connection closes. Idempotent; `onClose` gets ``CloseReason/closedByOwner`` unless the
  /// stream had already ended.
  public func close() {
    let began: Bool = lock.withLock {
      guard case .open = state else { return false }
      state = .ending(.closedByOwner)
      return true
    }
    guard began else { return }
    let accepted = mailbox.execute { [descriptor, connectionID] loop in
      if let connection = loop.connection(descriptor, id: connectionID) {
        connection.endStream(self)
      } else {
        self.finish(loop.reasonForMissingConnection)
      }
    }
    if !accepted { finish(.serverStopped) }
  }

  private func enqueue(_ frame: [UInt8]) throws(WebcomError) {
    let bytes = isChunked ? EventStreamFrame.chunk(frame) : frame
    enum Action {
      case none
      case flush
      case abort(queued: Int)
    }
    let outcome: Result<Action, WebcomError> = lock.withLock {
      switch state {
      case .ending(let reason), .ended(let reason):
        return .failure(Self.endedError(reason))
      case .open:
        let queued = pending.count + unwrittenCount
        if queued > 0 && queued + bytes.count > queueLimit {
          state = .ending(.slowReader)
          pending = []
          return .success(.abort(queued: queued))
        }
        pending += bytes
        guard !isFlushScheduled else { return .success(.none) }
        isFlushScheduled = true
        return .success(.flush)
      }
    }
    switch outcome {
    case .failure(let error):
      throw error
    case .success(.none):
      return
    case .success(.flush):
      let accepted = mailbox.execute { [descriptor, connectionID] loop in
        if let connection = loop.connection(descriptor, id: connectionID) {
          connection.flushStream(self)
        } else {
          self.finish(loop.reasonForMissingConnection)
        }
      }
      if !accepted { finish(.serverStopped) }
    case .success(.abort(let queued)):
      let accepted = mailbox.execute { [descriptor, connectionID] loop in
        if let connection = loop.connection(descriptor, id: connectionID) {
          connection.abortStream(self)
        } else {
          self.finish(loop.reasonForMissingConnection)
        }
      }
      if !accepted { finish(.serverStopped) }
      throw WebcomError(
        .disconnected,
        "the event stream was closed: its reader is too slow (\(queued) bytes queued, "
          + "\(bytes.count) more would exceed the limit of \(queueLimit) bytes)")
    }
  }

  private static func endedError(_ reason: CloseReason) -> WebcomError {
    let why =
      switch reason {
      case .closedByOwner: "it was closed by its owner"
      case .peerClosed: "the peer closed the connection"
      case .slowReader: "its reader was too slow"
      case .serverStopped: "the server stopped"
      }
    return WebcomError(.disconnected, "the event stream has ended: \(why)")
  }

  // MARK: - Loop side

  /// Takes the bytes sent since the last call (loop thread).
  func takePending() -> [UInt8] {
    lock.withLock {
      isFlushScheduled = false
      let taken = pending
      pending = []
      unwrittenCount += taken.count
      return taken
    }
  }

  /// Records how many bytes the connection still has to write (loop thread).
  func setUnwrittenCount(_ count: Int) {
    lock.withLock { unwrittenCount = count }
  }

  /// Ends the stream if it has not ended and reports it once to `onClose` (loop thread, or the
  /// caller's when the loop has stopped). A reason recorded by an earlier ``close()`` or
  /// overflow wins over `reason`.
  func finish(_ reason: CloseReason) {
    let report: (callback: (@Sendable (CloseReason) -> Void)?, reason: CloseReason)? =
      lock.withLock {
        let final: CloseReason
        switch state {
        case .ended: return nil
        case .ending(let recorded): final = recorded
        case .open: final = reason
        }
        state = .ended(final)
        pending = []
        unwrittenCount = 0
        let callback = onClose
        onClose = nil
        return (callback, final)
      }
    if let report { report.callback?(report.reason) }
  }
}
