/// When a write is applied by the back end.
public enum DatasyncTime: Sendable, Hashable {
  /// As soon as possible.
  case now
  /// When this client next disconnects from the back end (once).
  case nextDisconnection
  /// Every time this client disconnects from the back end.
  case onDisconnection
}
