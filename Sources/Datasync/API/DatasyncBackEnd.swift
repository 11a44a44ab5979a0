import Foundation

/// The back end an application connects to.
public enum DatasyncBackEnd: Sendable {
  /// An in-process database; applications sharing one database see each other's writes.
  case embedded(DatasyncDatabase)
  /// A database served over HTTP or HTTPS with the REST and streaming protocol of hosted
  /// realtime databases: a `datasync serve` process, or a hosted database.
  ///
  /// Listens are Server-Sent Events streams, writes and reads HTTP requests sent in order; the
  /// application's token (``AuthenticationService/authenticate(withToken:queue:then:)``) goes with
  /// each of them. The connection is checked, lost and restored as ``RemoteOptions`` sets; the
  /// client then resynchronises every subscription from the fresh data. Disconnection
  /// operations, authentications and increments from a start other than 0 travel on the session
  /// extension of `datasync serve` (one more stream, `/.session.json`, open while connected; the
  /// server runs the operations when it drops, as when the client goes offline, and tells the
  /// identity a token stands for). Against a service without it, disconnection operations and
  /// increments from a start other than 0 fail with `invalidArgument` naming the missing
  /// extension, and an accepted token gets a stand-in identity. A `url` that is not an absolute
  /// `http`/`https` URL with a host and no query never connects: every request and
  /// subscription fails at once with an `invalidArgument` error naming it, and writes are not
  /// applied locally.
  ///
  /// ```swift
  /// let app = WebcomApplication(
  ///   configuration: .init(
  ///     identifier: "chat", backEnd: .remote(url: URL(string: "http://127.0.0.1:8080")!)))
  /// ```
  ///
  /// - Parameters:
  ///   - url: The database's URL (`https://<name>.example.com`, `http://127.0.0.1:8080`).
  ///   - namespace: The namespace (`ns=`) for servers that host several databases.
  ///   - options: Timeouts and the reconnection policy.
  case remote(url: URL, namespace: String? = nil, options: RemoteOptions = RemoteOptions())
}
