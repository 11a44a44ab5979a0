/// The back end an application connects to.
public enum DatasyncBackEnd: Sendable {
  /// An in-process database; applications sharing one database see each other's writes.
  case embedded(DatasyncDatabase)
}
