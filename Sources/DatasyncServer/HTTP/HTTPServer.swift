import Datasync
import Foundation

/// An HTTP/1.1 server with Server-Sent Events, on non-blocking sockets driven by one event-loop
/// thread (not a thread per connection).
///
/// Creating a server binds its socket and starts serving; ``stop()`` (or releasing the server)
/// closes the listener and every connection — event streams end with
/// ``HTTPEventStream/CloseReason/serverStopped`` — and waits for the loop thread to end.
///
/// It parses requests itself: keep-alive (HTTP/1.1 by default, HTTP/1.0 with
/// `Connection: keep-alive`), pipelining (answers in request order), `Content-Length` and
/// chunked bodies, `Expect: 100-continue`, percent-decoded paths and queries. It answers on its
/// own, with `{"error": …}` JSON and then closing the connection: `400` for malformed input,
/// `408` when a started request does not arrive within ``Configuration/readTimeout``, `413`,
/// `414` and `431` beyond the size limits, `417`, `501` for transfer encodings other than
/// chunked, `505` for HTTP versions other than 1.x, and `503` to a connection beyond
/// ``Configuration/maxConnections``. A write never raises `SIGPIPE`.
///
/// On Linux the loop waits with `epoll`, elsewhere with POSIX `poll`.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0)) { request, responder in
///   responder.respond(HTTPResponse(body: "hello \(request.path)"))
/// }
/// print("listening on port \(server.port)")
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
  /// The address the server listens on, as configured.
  public let host: String
  /// The port the server is bound to (the one picked when the configured port was 0).
  public let port: Int

  private let mailbox: LoopMailbox
  private let thread: LoopThread
  private let openConnections: OpenConnectionGauge

  /// Binds `configuration.host:configuration.port` and starts serving with `handler`.
  ///
  /// - Throws: `invalidArgument` for a limit that is not positive or an address that cannot be
  ///   resolved or bound (the message names it and the system's reason); `internalError` when
  ///   the system refuses a resource (descriptors, a thread).
  public init(configuration: Configuration = Configuration(), handler: some HTTPHandler)
    throws(WebcomError)
  {
    let settings = try Self.settings(of: configuration)
    let loop = try ServerLoop(
      host: configuration.host, port: configuration.port, settings: settings,
      pollerKind: configuration.pollerKind, handler: handler)
    let transfer = LoopTransfer(loop)
    host = configuration.host
    port = loop.port
    mailbox = loop.mailbox
    openConnections = loop.openConnections
    do throws(WebcomError) {
      thread = try LoopThread.start { transfer.take().run() }
    } catch {
      transfer.take().abandon()
      throw error
    }
  }

  /// Binds and starts serving, calling `handler` for each request (see ``HTTPHandler``).
  public convenience init(
    configuration: Configuration = Configuration(),
    handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void
  ) throws(WebcomError) {
    try self.init(configuration: configuration, handler: ClosureHandler(body: handler))
  }

  deinit {
    stop()
  }

  /// Waits (at most `timeout`) until at most `count` connections are open; returns whether they
  /// are. A connection counts until the server has noticed its end and closed its socket.
  package func waitForOpenConnections(atMost count: Int, timeout: Duration = .seconds(10)) -> Bool {
    openConnections.wait(untilAtMost: count, deadline: Date(timeIntervalSinceNow: timeout.seconds))
  }

  /// The descriptors and the thread a running server holds, to check that stopping releases
  /// them all.
  package struct HeldResources: Sendable {
    /// The listening socket and the connections' sockets.
    package let sockets: [Int32]
    /// The pipe that wakes the loop.
    package let pipe: [Int32]
    /// The `epoll` descriptor (nil with the portable poller).
    package let poller: Int32?
    /// The loop thread's kernel identifier (nil where `/proc` does not say).
    package let threadID: Int32?
  }

  /// What the server holds now, read on its loop thread; nil once it stopped.
  package func heldResources() -> HeldResources? {
    let answer = LockedValue<HeldResources?>(nil)
    let done = DispatchSemaphore(value: 0)
    let accepted = mailbox.execute { loop in
      answer.withLock { $0 = loop.heldResources() }
      done.signal()
    }
    guard accepted, done.wait(timeout: .now() + 10) == .success else { return nil }
    return answer.withLock { $0 }
  }

  /// Stops serving: closes the listener and every connection, ends every event stream, and
  /// returns once the loop thread has ended. Idempotent and thread-safe. Called from the loop
  /// thread itself (from a handler or a stream callback) it cannot wait: the loop then ends as
  /// soon as that callback returns.
  public func stop() {
    _ = mailbox.requestStop()
    thread.waitForEnd(isCurrentThread: mailbox.isOnLoopThread)
  }

  private static func settings(of configuration: Configuration) throws(WebcomError)
    -> ServerLoop.Settings
  {
    let limits: [(String, Int)] = [
      ("maxConnections", configuration.maxConnections),
      ("maxRequestBodyBytes", configuration.maxRequestBodyBytes),
      ("maxHeaderBytes", configuration.maxHeaderBytes),
      ("maxHeaderCount", configuration.maxHeaderCount),
      ("eventStreamQueueLimit", configuration.eventStreamQueueLimit),
    ]
    for (name, value) in limits where value <= 0 {
      throw WebcomError(.invalidArgument, "the limit \(name) must be positive, not \(value)")
    }
    let readTimeout = try nanoseconds(configuration.readTimeout, "readTimeout")
    let idleTimeout = try nanoseconds(configuration.idleTimeout, "idleTimeout")
    return ServerLoop.Settings(
      maxConnections: configuration.maxConnections,
      parserLimits: HTTPRequestParser.Limits(
        maxHeaderBytes: configuration.maxHeaderBytes,
        maxHeaderCount: configuration.maxHeaderCount,
        maxBodyBytes: configuration.maxRequestBodyBytes),
      readTimeout: readTimeout, idleTimeout: idleTimeout,
      lingerTimeout: min(idleTimeout, 2_000_000_000),
      eventStreamQueueLimit: configuration.eventStreamQueueLimit,
      maxBufferedInput: 65_536)
  }

  private static func nanoseconds(_ duration: Duration, _ name: String) throws(WebcomError)
    -> UInt64
  {
    let (seconds, attoseconds) = duration.components
    guard duration > .zero, seconds < 1_000_000_000 else {
      throw WebcomError(
        .invalidArgument, "the timeout \(name) must be positive and below 10^9 s, not \(duration)")
    }
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}

/// A handler made of a closure.
private struct ClosureHandler: HTTPHandler {
  let body: @Sendable (HTTPRequest, HTTPResponder) -> Void

  func handle(_ request: HTTPRequest, responder: HTTPResponder) {
    body(request, responder)
  }
}

/// Hands the loop, built on the creating thread, to the loop thread, which alone uses it then.
private final class LoopTransfer: @unchecked Sendable {
  // Set once at creation, taken once by the receiving thread: the thread's start orders them.
  private var loop: ServerLoop?

  init(_ loop: ServerLoop) {
    self.loop = loop
  }

  func take() -> ServerLoop {
    defer { loop = nil }
    return loop!
  }
}
