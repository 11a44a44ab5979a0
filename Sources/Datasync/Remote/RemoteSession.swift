import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The state of a remote connection's session: the server's session extension (`GET` and
/// `POST` on `/.session.json?client=<id>`), which carries what the REST protocol cannot — the
/// disconnection operations the server runs when the session's stream drops, increments from a
/// start other than 0, and the identity a token stands for.
///
/// The first request that needs the session opens its stream (`GET
/// /.session.json?client=<id>`, `Accept: text/event-stream`, the connection's credential) and
/// waits for its `connected` event; each such request is then `POST`ed, in the connection's one
/// ordered pipeline, and answered by its `ack`, `reject` or `auth` event. The server runs the
/// disconnection operations when the stream drops, so the stream stays open while connected,
/// closes with the connection (going offline, a lost connection, closing), and, once a session
/// was open, opens again at each connection: the client identifier stays the same for the
/// connection's whole life, so that the server keeps the operations registered for every
/// disconnection from one session to the next, as the embedded back end does. The stream
/// ending, breaking the protocol or staying silent loses the connection; a request that got no
/// answer is sent again after reconnection (an operation whose `ack` was lost may then be
/// registered twice).
///
/// A server without the extension — its session path answered with an HTTP error (`401` is
/// tried again without credential), with something else than an event stream, or with a stream
/// whose first event is not `connected` — refuses disconnection operations and increments from
/// a start other than 0 with `invalidArgument` naming the missing extension and how the server
/// answered, and authentications go as REST requests; that is remembered until the connection is
/// lost or closed.
///
/// Authentications travel on the session too (its `auth` event tells the identity the server's
/// rules see), and sign-outs while it is open, so that the session stands for the connection's
/// token; a revocation it announces (`auth-change`) ends the token for the REST requests as well.
///
/// Touched only on the connection's queue.
final class RemoteSession {
  enum Phase: Equatable {
    /// No session stream (never needed yet, or closed with the connection).
    case closed
    /// The stream was requested; its `connected` event has not arrived.
    case opening
    /// The stream delivered `connected`: requests may be posted.
    case open
    /// The server does not offer the extension; the text says how it answered (remembered until
    /// the connection is lost or closed).
    case unavailable(String)
  }

  /// The request posted on the session, awaiting its answer on the stream.
  struct Posted {
    let identifier: RequestIdentifier
    /// The number of the `POST`, to ignore the completion of an older one.
    let number: UInt64
    /// The number of the stream it was posted on: its answer comes on that stream only.
    let streamNumber: UInt64
    /// Whether the `POST` was answered `204` (the server handled the request; its answer is
    /// still to come on the stream).
    var isAccepted = false
  }

  /// The client identifier: 22 random letters and digits (about 131 bits).
  let clientID: String
  var phase = Phase.closed
  /// Whether a session was ever open: it is then opened again at every connection, so that the
  /// operations registered to run at every disconnection run at the next one too.
  var hasBeenOpen = false
  /// The token the server's session stands for: the one its stream was opened with, then the
  /// one of each accepted `authenticate` (nil after `signOut` or a revocation). `POST`s present
  /// it, as the server requires.
  var token: String?
  /// Changes with each stream, so that the callbacks of an older stream do nothing.
  var streamNumber: UInt64 = 0
  var task: URLSessionDataTask?
  var parser = ServerSentEventParser()
  var status = 0
  var errorBody: [UInt8] = []
  var lastActivity = DispatchTime.now()
  var posted: Posted?
  var postCount: UInt64 = 0

  init() {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    var generator = SystemRandomNumberGenerator()
    clientID = String((0..<22).map { _ in alphabet.randomElement(using: &generator)! })
  }

  /// Starts a new stream's state (the previous stream, if any, already cancelled).
  func startStream(token: String?) {
    streamNumber += 1
    phase = .opening
    self.token = token
    task = nil
    parser = ServerSentEventParser()
    status = 0
    errorBody = []
    lastActivity = .now()
  }

  /// Ends the stream (cancelling it) and forgets an absent extension: the next connection
  /// probes the server again. A posted request's answer cannot come any more (see
  /// ``RemoteConnection/endSession()``).
  func close() {
    streamNumber += 1
    task?.cancel()
    task = nil
    phase = .closed
  }

  /// Whether the stream (once requested) has been silent for longer than `timeout` nanoseconds
  /// at `now` (uptime nanoseconds).
  func isSilent(longerThan timeout: UInt64, now: UInt64) -> Bool {
    guard phase == .opening || phase == .open else { return false }
    return now - min(now, lastActivity.uptimeNanoseconds) > timeout
  }
}
