import Datasync
import Dispatch
import Foundation

/// Serves Datasync databases over HTTP: the REST and streaming protocol of hosted realtime
/// databases (so that their clients work against it), and the session extension of this
/// project's own clients.
///
/// **REST.** `/<path>.json` is the data at `<path>`: `GET` reads it (`shallow=true`,
/// `print=pretty|silent`, `format=export`, queries with `orderBy` = `"$key"`, `"$value"` or a
/// child path and `startAt`, `startAfter`, `endAt`, `endBefore`, `equalTo`, `limitToFirst`,
/// `limitToLast` — JSON-quoted values, see ``ValueQuery``; `shallow=true` with `orderBy="$key"`
/// and its filters pages through a node's keys without their subtrees, an extension); `PUT`
/// replaces it and answers the value written (`print=silent`: 204); `PATCH` writes several
/// children or `/`-separated paths below it, atomically; `POST` adds a child with a push
/// identifier and answers `{"name": "<key>"}`; `DELETE` removes it. Written data may hold the
/// server values `{".sv": "timestamp"}` and `{".sv": {"increment": n}}`. `X-Firebase-ETag:
/// true` adds the data's `ETag`; a `PUT` or `DELETE` with `if-match` applies only if the data
/// still has that tag, else 412 with the current data and its tag; a `GET` with `if-none-match`
/// answers 304 when unchanged. A `POST` may carry `X-HTTP-Method-Override`. Errors are
/// `{"error": "<message>"}`: 400 (invalid data, path, key or parameter), 401 (unknown or
/// revoked token), 403 (denied by the rules), 404 (not a `.json` path), 405, 412, 413, 431,
/// 500, 503 (too many namespaces).
///
/// **Streams.** A `GET` with `Accept: text/event-stream` answers Server-Sent Events: `put`
/// with `{"path": "/", "data": …}` first (the first level only with `shallow=true`, an
/// extension), then `put` or `patch` for each change with its path relative to the location,
/// `keep-alive` periodically, `cancel` (and the end) when the rules no longer let it read the
/// location, `auth_revoked` (and the end) when its token is revoked. A reader too slow for its
/// queue is disconnected (it reconnects and resynchronises); others are never held up.
///
/// **Console.** `GET /` (or `/console`) answers the data console, a page that browses and
/// edits the data live in a browser through the protocol above.
///
/// **Credentials and namespaces.** `Authorization: Bearer <token>` or `?auth=<token>`
/// authenticates as the identity the token stands for (``Configuration/tokens``; the
/// ``Configuration/adminToken`` is ``DatasyncAuthentication/admin``); without a token a
/// request is unauthenticated (`auth == null` in rules). `?ns=<name>` (or a `Host` such as
/// `<name>.localhost`) selects a namespace: a database of its own, created on first use.
///
/// ```swift
/// let server = try DatabaseServer(configuration: .init(host: "127.0.0.1", port: 0))
/// print("listening on port \(server.port)")
/// server.stop()
/// ```
public final class DatabaseServer: Sendable {
  /// The port the server listens on (the one picked when the configured port was 0).
  public let port: Int
  /// The address the server listens on.
  public let host: String

  private let http: HTTPServer
  private let namespaces: NamespaceRegistry
  private let streams: StreamRegistry
  private let keepAlive: KeepAliveTimer

  /// Opens the default namespace's database and starts serving.
  ///
  /// - Throws: ``WebcomError``: `invalidArgument` for a token given twice (the admin token in
  ///   ``Configuration/tokens``), an invalid limit or an address that cannot be bound;
  ///   `storageFailed` when the data file cannot be opened.
  public init(configuration: Configuration) throws(WebcomError) {
    var tokens = configuration.tokens
    if let adminToken = configuration.adminToken {
      guard tokens[adminToken] == nil else {
        throw WebcomError(
          .invalidArgument,
          "the admin token \(JSONStringLiteral.quoted(adminToken)) is also in the tokens: a "
            + "token stands for one identity")
      }
      tokens[adminToken] = .admin
    }
    let storage: NamespaceRegistry.Storage =
      configuration.dataPath.map { .files(dataPath: $0) } ?? .memory
    namespaces = NamespaceRegistry(
      storage: storage, rules: configuration.rules, tokens: tokens,
      maximumCount: configuration.maximumNamespaces)
    _ = try namespaces.database(for: nil)
    streams = StreamRegistry()
    let handler = RESTHandler(
      namespaces: namespaces, streams: streams,
      sessions: SessionRegistry(maximumIdleClients: configuration.maximumIdleSessionClients),
      log: configuration.requestLog)
    do throws(WebcomError) {
      http = try HTTPServer(
        configuration: configuration.http,
        handler: ConsoleRoute(next: handler, log: configuration.requestLog))
    } catch {
      namespaces.close()
      throw error
    }
    port = http.port
    host = http.host
    keepAlive = KeepAliveTimer(interval: configuration.keepAliveInterval, streams: streams)
  }

  deinit {
    stop()
  }

  /// The database of a namespace (nil: the default one), opened on first use: to change its
  /// rules or tokens while serving, or to use it in-process.
  ///
  /// - Throws: ``WebcomError`` as when a request opens it (`storageFailed`, `invalidArgument`
  ///   beyond the maximum number of namespaces, `disconnected` once stopped).
  public func database(for namespace: Namespace? = nil) throws(WebcomError) -> DatasyncDatabase {
    try namespaces.database(for: namespace)
  }

  /// The number of event streams open.
  public var openStreamCount: Int { streams.count }

  /// Closes every open event stream from the server's side, as a network failure would cut
  /// them; the server keeps serving, and clients may open new streams at once.
  public func closeStreams() {
    streams.closeAll()
  }

  /// Waits (at most `timeout`) until at most `count` event streams are open; returns whether
  /// they are. A stream counts until the server has noticed its end and run what depends on it
  /// (a session's disconnection operations).
  package func waitForOpenStreams(atMost count: Int, timeout: Duration = .seconds(10)) -> Bool {
    streams.wait(untilAtMost: count, deadline: Date(timeIntervalSinceNow: timeout.seconds))
  }

  /// Waits (at most `timeout`) until at least `count` event streams are open; returns whether
  /// they are. A session's stream counts once its session is connected to the back end.
  package func waitForOpenStreams(atLeast count: Int, timeout: Duration = .seconds(10)) -> Bool {
    streams.wait(untilAtLeast: count, deadline: Date(timeIntervalSinceNow: timeout.seconds))
  }

  /// Stops serving: no more connections, every stream closed (its clients' disconnection
  /// operations run), every database closed. Idempotent.
  public func stop() {
    keepAlive.cancel()
    streams.closeAll()
    http.stop()
    namespaces.close()
  }
}

/// Sends `keep-alive` to every open stream periodically.
private final class KeepAliveTimer: Sendable {
  private let timer: LockedValue<any DispatchSourceTimer>

  init(interval: Duration, streams: StreamRegistry) {
    let (seconds, attoseconds) = interval.components
    let nanoseconds = max(
      Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000), 1_000_000)
    let source = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
    source.schedule(
      deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
    source.setEventHandler { streams.sendKeepAlives() }
    source.resume()
    timer = LockedValue(source)
  }

  func cancel() {
    timer.withLock { $0.cancel() }
  }
}
