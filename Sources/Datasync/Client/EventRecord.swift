/// One event waiting for delivery, without its public wrappers (built on the subscriber's queue).
struct EventRecord: Sendable {
  let eventType: DatasyncEventType
  /// The node the event is about (the child for child events).
  let path: DatasyncPath
  let value: JSONValue
  let previousKey: WebcomKey?
  let acked: Bool

  /// The record as a subscriber with the `withoutData` modifier gets it: without the value,
  /// which it is never shown. A value event waiting for a slow subscriber then holds no version of
  /// the tree.
  func forSubscriber(_ subscriber: ClientViews.Subscriber) -> EventRecord {
    guard subscriber.eventType.isWithoutData, value != .null else { return self }
    return EventRecord(
      eventType: eventType, path: path, value: .null, previousKey: previousKey, acked: acked)
  }
}
