/// How to create a ``WebcomApplication``.
public struct WebcomConfiguration: Sendable {
  /// A name for the application, used in diagnostics.
  public var identifier: String
  /// The back end the application's Datasync service connects to.
  public var backEnd: DatasyncBackEnd

  /// Creates a configuration.
  ///
  /// - Parameters:
  ///   - identifier: A name for the application, used in diagnostics.
  ///   - backEnd: The back end; by default a new, private embedded database.
  public init(identifier: String, backEnd: DatasyncBackEnd = .embedded(DatasyncDatabase())) {
    self.identifier = identifier
    self.backEnd = backEnd
  }
}
