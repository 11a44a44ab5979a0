/// The failure of a marble publisher whose `#` has no error of its own.
public struct MarbleFailure: Error, Equatable, Sendable {
  /// The failure.
  public init() {}
}
