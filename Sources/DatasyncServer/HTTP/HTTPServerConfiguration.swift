extension HTTPServer {
  /// Where an ``HTTPServer`` listens and the limits it applies to its connections.
  ///
  /// ```swift
  /// var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
  /// configuration.idleTimeout = .seconds(30)
  /// ```
  public struct Configuration: Sendable {
    /// The address to listen on: a numeric IPv4 or IPv6 address or a host name (default
    /// `127.0.0.1`; `0.0.0.0` listens on every IPv4 interface).
    public var host: String
    /// The port to listen on; 0 (the default) picks a free port, read back as
    /// ``HTTPServer/port``.
    public var port: Int
    /// The most connections open at once; a connection beyond it is answered `503` and closed
    /// (default 4096).
    public var maxConnections = 4_096
    /// The largest request body, in bytes; a larger one is answered `413` and the connection
    /// closed (default 16 MiB).
    public var maxRequestBodyBytes = 16 << 20
    /// The largest request line plus header section, in bytes: beyond it, `431` (`414` when the
    /// request line alone is longer) and the connection closes (default 32 KiB).
    public var maxHeaderBytes = 32 << 10
    /// The most header fields in a request: beyond it, `431` (default 100).
    public var maxHeaderCount = 100
    /// How long a request may take to arrive once its first byte has: beyond it, `408` and the
    /// connection closes (default 30 s).
    public var readTimeout = Duration.seconds(30)
    /// How long a connection may stay without a request in progress and without traffic: it is
    /// then closed (default 60 s). Event streams are not subject to it (their owner sends
    /// keep-alives).
    public var idleTimeout = Duration.seconds(60)
    /// How many bytes an event stream may have queued for a slow reader before it is closed
    /// (default 1 MiB).
    public var eventStreamQueueLimit = 1 << 20
    /// The kernel facility the loop waits on (tests run both).
    var pollerKind = EventPollerKind.platformDefault

    /// Creates a configuration with the default limits.
    public init(host: String = "127.0.0.1", port: Int = 0) {
      self.host = host
      self.port = port
    }
  }
}
