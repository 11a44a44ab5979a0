/// Errors the Streams bridges raise themselves.
public enum StreamsError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The publisher finished before producing the value that was awaited.
  case completedWithoutValue

  public var description: String {
    switch self {
    case .completedWithoutValue: "the publisher finished without producing a value"
    }
  }
}
