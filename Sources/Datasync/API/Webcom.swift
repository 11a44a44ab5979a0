/// The entry point of the Webcom SDK.
public enum Webcom {
  private static let sharedDefaultApplication = WebcomApplication(
    configuration: WebcomConfiguration(identifier: "default"))

  /// The default application: an embedded, in-memory database private to this process.
  ///
  /// Every access returns the same instance.
  public static var defaultApplication: WebcomApplication { sharedDefaultApplication }
}
