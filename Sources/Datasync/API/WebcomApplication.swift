import Foundation

/// An application of the Webcom SDK: a configuration, JSON coders, and a Datasync service.
///
/// ```swift
/// let app = WebcomApplication(configuration: .init(identifier: "chat"))
/// let manager = app.datasyncService.createManager()
/// ```
///
/// Nodes, managers and the service do not need the application to stay alive:
/// `makeApp().datasyncService.createManager() / "x"` is usable on its own.
public final class WebcomApplication: Sendable {
  /// The configuration the application was created with.
  public let configuration: WebcomConfiguration
  /// The Datasync service of the application (always the same instance).
  public let datasyncService: DatasyncService
  /// The authentication of the application with its back end, which the security rules of every
  /// operation of ``datasyncService`` see (always the same instance).
  public let authenticationService: AuthenticationService
  private let context: ApplicationContext

  /// Creates an application and connects its Datasync service to the configured back end.
  public init(configuration: WebcomConfiguration) {
    self.configuration = configuration
    self.context = ApplicationContext(identifier: configuration.identifier)
    self.datasyncService = DatasyncService(context: context, backEnd: configuration.backEnd)
    self.authenticationService = AuthenticationService(client: datasyncService.client)
  }

  /// The encoder used for every value written through this application's nodes.
  public var jsonEncoder: JSONEncoder {
    get { context.encoder }
    set { context.encoder = newValue }
  }

  /// The decoder used by `decodedValue`, `decodedValueSubscribe` and `assignChildren`.
  ///
  /// Values are decoded straight from the stored data, without JSON text, with this decoder's
  /// date, data, key and non-conforming float strategies and its `userInfo`: the result is what
  /// the decoder would give for the value's JSON text (``DatasyncValue/json``), except that a
  /// number that does not fit the requested type, or a string that is not an ISO 8601 date,
  /// fails at the value's own key path, and that coding keys match stored keys by their UTF-8
  /// bytes. A subclass of `JSONDecoder`, or a decoder that `assumesTopLevelDictionary`, decodes
  /// the JSON text, so that its overrides apply.
  public var jsonDecoder: JSONDecoder {
    get { context.decoder }
    set { context.decoder = newValue }
  }
}
