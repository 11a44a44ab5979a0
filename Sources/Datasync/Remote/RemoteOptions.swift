import Foundation

/// The network settings of a remote back end (``DatasyncBackEnd/remote(url:namespace:options:)``).
///
/// The defaults suit a server on the internet; tests and local servers may shorten them.
public struct RemoteOptions: Sendable, Equatable {
  /// How long a request (a write, a read, the connection check) may wait for its answer, in
  /// seconds, before the connection counts as lost. Default 30.
  public var requestTimeout: TimeInterval
  /// How long a stream may stay silent, in seconds, before the connection counts as lost.
  /// Servers send a `keep-alive` event every 30 seconds or so. Default 75.
  public var idleTimeout: TimeInterval
  /// How the back end waits before each attempt to reconnect.
  public var reconnection: RemoteReconnectionPolicy

  /// Creates options; timeouts below 0.01 seconds are raised to it.
  public init(
    requestTimeout: TimeInterval = 30, idleTimeout: TimeInterval = 75,
    reconnection: RemoteReconnectionPolicy = RemoteReconnectionPolicy()
  ) {
    self.requestTimeout = max(0.01, requestTimeout)
    self.idleTimeout = max(0.01, idleTimeout)
    self.reconnection = reconnection
  }
}
