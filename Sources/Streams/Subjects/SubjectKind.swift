/// Which subject a ``SubjectSubscription`` serves, and so how it treats values and demand.
@usableFromInline
internal enum SubjectKind: Sendable {
  /// `PassthroughSubject`: a value without demand is dropped.
  case passthrough
  /// `CurrentValueSubject`: as `passthrough`, and the current value is delivered on the first
  /// demand.
  case currentValue
  /// The subject of `share(replay:)`: values wait for demand, and a new subscriber first
  /// receives the replayed values.
  case replay

  /// The name a subscription of this kind describes itself by.
  @usableFromInline
  var operatorName: String {
    switch self {
    case .passthrough: "PassthroughSubject"
    case .currentValue: "CurrentValueSubject"
    case .replay: "ShareReplay"
    }
  }
}
