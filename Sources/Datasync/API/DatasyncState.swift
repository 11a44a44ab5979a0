import Foundation

/// The state of the connection between a ``DatasyncService`` and its back end.
public enum DatasyncState: Sendable, Equatable {
  /// No connection: writes apply locally and queue until the connection is back.
  case disconnected
  /// Connected; `clockOffset` is the back end's clock minus the local clock, in seconds.
  case connected(clockOffset: TimeInterval)
}
