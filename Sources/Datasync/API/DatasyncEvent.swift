/// An event delivered to a subscription.
///
/// For a child event, ``key``, ``node`` and ``value`` are the child's; for a value event, the
/// subscribed node's. ``eventType`` holds exactly one flag.
public struct DatasyncEvent: Sendable {
  /// The value of the node the event is about; a removal carries the child's last value, a value
  /// event of a subscription with `withoutData` carries null.
  public let value: DatasyncValue
  /// The key of the preceding child in the subscription's window; nil for the first child,
  /// removals and value events.
  public var previousChildKey: String? { previousKey?.value }
  /// The key of the node the event is about.
  public let key: WebcomKey
  /// ``previousChildKey`` as a key, its string made only when read.
  let previousKey: WebcomKey?
  /// Whether the data has been confirmed by the back end (false while a local write touching it
  /// is pending).
  public let acked: Bool
  /// The single type of this event, for example ``DatasyncEventType/childAddition``.
  public let eventType: DatasyncEventType
  /// The node the event is about; nil when the subscription's manager no longer exists.
  ///
  /// Made when read (events are often consumed without it); nodes are equal by path, so every
  /// read gives an equal node.
  public var node: DatasyncNode? {
    manager.map { DatasyncNode(manager: $0, location: location) }
  }
  /// The manager of the subscription, which ``node`` belongs to.
  let manager: DatasyncManager?
  /// The path of the node the event is about.
  let location: DatasyncPath
  /// The subscription that received the event.
  public let subscription: DatasyncSubscription
}
