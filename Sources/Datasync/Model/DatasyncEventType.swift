/// The kinds of events a subscription asks for, and the kind of a received event.
///
/// A subscription may set several flags (`.child(addition: true, removal: true)`); a received
/// event has exactly one flag set, which the shorthands spell (`.childAddition`).
/// `withoutData` is a modifier, not a kind: a subscription to
/// `.value(change: true, withoutData: true)` receives value-change events whose value is not
/// transferred.
///
/// ```swift
/// node.subscribe(to: .child(addition: true, removal: true), onEvent: { event in
///   if event.eventType == .childAddition { print("added", event.key) }
/// })
/// ```
public enum DatasyncEventType: Sendable, Hashable {
  /// Events about the value of the node.
  ///
  /// - Parameters:
  ///   - change: The value changed (and, on subscription, the current value).
  ///   - withoutData: Modifier: the events do not carry the value.
  ///   - acknowledgement: The back end acknowledged a write of this client to the node.
  case value(change: Bool = false, withoutData: Bool = false, acknowledgement: Bool = false)

  /// Events about the children of the node.
  ///
  /// - Parameters:
  ///   - addition: A child entered the window (and, on subscription, each existing child).
  ///   - change: The value of a child in the window changed.
  ///   - removal: A child left the window.
  ///   - acknowledgement: The back end acknowledged a write of this client to a child.
  case child(
    addition: Bool = false, change: Bool = false, removal: Bool = false,
    acknowledgement: Bool = false)

  /// A change of the value of the node.
  public static var valueChange: DatasyncEventType { .value(change: true) }
  /// An acknowledgement of a write to the node.
  public static var valueAcknowledgement: DatasyncEventType { .value(acknowledgement: true) }
  /// A child entering the window.
  public static var childAddition: DatasyncEventType { .child(addition: true) }
  /// A change of a child in the window.
  public static var childChange: DatasyncEventType { .child(change: true) }
  /// A child leaving the window.
  public static var childRemoval: DatasyncEventType { .child(removal: true) }
  /// An acknowledgement of a write to a child.
  public static var childAcknowledgement: DatasyncEventType { .child(acknowledgement: true) }
}

extension DatasyncEventType {
  /// Whether this is a `value` type (rather than a `child` one).
  var isValueType: Bool {
    if case .value = self { return true }
    return false
  }

  /// Whether the `withoutData` modifier is set.
  var isWithoutData: Bool {
    if case .value(_, true, _) = self { return true }
    return false
  }

  /// Whether every event kind of `single` is also asked for by this type (the `withoutData`
  /// modifier is ignored).
  func contains(_ single: DatasyncEventType) -> Bool {
    switch (self, single) {
    case (.value(let change, _, let acknowledgement), .value(let otherChange, _, let otherAck)):
      return (change || !otherChange) && (acknowledgement || !otherAck)
    case (
      .child(let addition, let change, let removal, let acknowledgement),
      .child(let otherAddition, let otherChange, let otherRemoval, let otherAck)
    ):
      return (addition || !otherAddition) && (change || !otherChange)
        && (removal || !otherRemoval) && (acknowledgement || !otherAck)
    default:
      return false
    }
  }

  /// The single-flag event types this type asks for, in the order `change`/`addition`,
  /// `change`, `removal`, `acknowledgement`.
  var singleTypes: [DatasyncEventType] {
    switch self {
    case .value(let change, _, let acknowledgement):
      return (change ? [.valueChange] : []) + (acknowledgement ? [.valueAcknowledgement] : [])
    case .child(let addition, let change, let removal, let acknowledgement):
      return (addition ? [.childAddition] : []) + (change ? [.childChange] : [])
        + (removal ? [.childRemoval] : []) + (acknowledgement ? [.childAcknowledgement] : [])
    }
  }

  /// Whether the type asks for at least one kind of event.
  var asksForEvents: Bool { !singleTypes.isEmpty }
}
