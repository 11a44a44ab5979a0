import Datasync

extension DatabaseServer {
  /// What a ``DatabaseServer`` serves, where, and to whom.
  ///
  /// ```swift
  /// var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
  /// configuration.dataPath = "./datasync.sqlite"
  /// configuration.tokens = ["alice-secret": DatasyncAuthentication(uid: "alice")]
  /// let server = try DatabaseServer(configuration: configuration)
  /// ```
  public struct Configuration: Sendable {
    /// Where to listen and the limits of connections (see ``HTTPServer/Configuration``).
    public var http: HTTPServer.Configuration
    /// The database file of the default namespace; a named namespace's file is derived from it
    /// (see ``Namespace``). nil keeps every database in memory.
    public var dataPath: String?
    /// The security rules of every namespace (default: authenticated clients may read and write
    /// everything, ``DatasyncRules/authenticated``).
    public var rules = DatasyncRules.authenticated
    /// The identity each token stands for (see ``TokensFile``).
    public var tokens: [String: DatasyncAuthentication] = [:]
    /// The token that authenticates as ``DatasyncAuthentication/admin`` (default `owner`, the
    /// token the local emulators of hosted databases accept); nil for none.
    public var adminToken: String? = "owner"
    /// How often each event stream gets a `keep-alive` event (default 30 s).
    public var keepAliveInterval = Duration.seconds(30)
    /// The most namespaces served at once (default 64): a request for one more is answered 503.
    public var maximumNamespaces = 64
    /// How many clients of the session protocol without a live session the server remembers
    /// (default 10,000): beyond it, the longest idle one is forgotten and the disconnection
    /// operations it registered to run at every disconnection are cancelled.
    public var maximumIdleSessionClients = 10_000
    /// Called with one line per request (for `--verbose`), nil for no request log.
    public var requestLog: (@Sendable (String) -> Void)?

    /// Creates a configuration with in-memory databases and the default limits.
    public init(host: String = "127.0.0.1", port: Int = 0) {
      http = HTTPServer.Configuration(host: host, port: port)
    }
  }
}
