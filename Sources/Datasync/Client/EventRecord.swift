/// One event waiting for delivery, without its public wrappers (built on the subscriber's queue).
struct EventRecord: Sendable {
  let eventType: DatasyncEventType
  /// The node the event is about (the child for child events).
  let path: DatasyncPath
  let value: JSONValue
  let previousKey: WebcomKey?
  let acked: Bool
}
