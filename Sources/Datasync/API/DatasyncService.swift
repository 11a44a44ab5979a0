import Foundation

/// The Datasync service of an application: its connection to the back end and its local cache.
///
/// Create managers with ``createManager()`` and reach nodes through them. A service is
/// thread-safe.
public final class DatasyncService: Sendable {
  let context: ApplicationContext
  let client: DatasyncClient
  /// The connection to an embedded back end, for the test hooks (latency, dropped connection).
  let embeddedConnection: EmbeddedConnection?

  init(context: ApplicationContext, backEnd: DatasyncBackEnd) {
    self.context = context
    switch backEnd {
    case .embedded(let database):
      let connection = EmbeddedConnection(database: database, label: context.identifier)
      embeddedConnection = connection
      client = DatasyncClient(connection: connection)
    case .remote(let url, let namespace, let options):
      embeddedConnection = nil
      client = DatasyncClient(
        connection: RemoteConnection(
          url: url, namespace: namespace, options: options, label: context.identifier))
    }
  }

  /// Creates a manager, which owns the subscriptions made through its nodes.
  public func createManager() -> DatasyncManager {
    DatasyncManager(service: self)
  }

  /// The state of the connection to the back end.
  public var state: DatasyncState { client.state }

  /// Whether the service may connect to the back end.
  ///
  /// Setting false disconnects: writes keep raising local events and queue, in order, until it is
  /// set back to true, when they are sent. The back end runs the disconnection operations
  /// (`at: .nextDisconnection` / `.onDisconnection`) when the service disconnects.
  ///
  /// While disconnected, subscriptions and reads are served from the cache where it holds the
  /// complete value of their node: data that subscriptions were keeping up to date, and nodes
  /// written in full locally (a `set` of the node or of an ancestor; a `merge` completes only the
  /// children it names). A read the cache cannot answer fails with `disconnected`; a
  /// subscription it cannot serve waits for the connection.
  public var isConnectionEnabled: Bool {
    get { client.isConnectionEnabled }
    set { client.setConnectionEnabled(newValue) }
  }
}
