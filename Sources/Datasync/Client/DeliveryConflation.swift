/// Which of a subscription's events wait for its queue while the queue is behind: every one, or
/// only those a subscriber that reads the state at the end of each delivery still needs.
///
/// Events wait in the ``DeliveryMailbox`` of the subscription's queue from the write that raised
/// them until a drain takes them. A subscription that conflates merges the events of each new
/// write into those already waiting for it, so its backlog is bounded by the data it shows, not
/// by the number of writes. Its subscriber sees, in one delivery, what it would have made of
/// all the events: the end of the delivery (`onDeliveryEnd`) is where it reads its state.
@usableFromInline
package enum DeliveryConflation: Sendable {
  /// Every event waits, in order: the contract of a callback subscription.
  case none
  /// Only the latest event waits, after every event posted before it on the queue: for a
  /// subscriber that keeps the latest event of a delivery (the streams of a node's value, and the
  /// end-of-write marks of `children(as:)`).
  case latestEvent
  /// Only the latest event of each child waits, replacing the child's earlier one: for a
  /// subscriber that folds a delivery's child events into the children as they are at its end,
  /// the last event of each key winning (`children(as:)`). A child that comes after every child
  /// waiting (new messages of a chat) is appended without a lookup; it can then wait twice, once
  /// it changes after a greater one came, so at most two events wait per child.
  ///
  /// Its child events carry no previous key (``DatasyncEvent/previousChildKey`` is nil): such a
  /// subscriber orders children by key, and finding the previous one would cost a descent of the
  /// tree per event (unless another subscription of the same node and constraint wants them).
  case latestEventPerChild

  /// Whether the subscription's child events carry the key of the previous child.
  var carriesPreviousKeys: Bool {
    switch self {
    case .none, .latestEvent: true
    case .latestEventPerChild: false
    }
  }
}
