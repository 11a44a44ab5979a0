import Datasync
import Foundation
import Streams

/// A publisher over one Datasync subscription: each subscriber gets its own subscription, made
/// when it subscribes and cancelled when it cancels.
///
/// `transform` turns each event into an output, or nil to skip the event. When `coalesces`, only
/// the latest event of each delivery is transformed and sent: the events that waited for the
/// stream's queue while it was behind come as one. A revocation fails the stream with its error;
/// an implicit cancellation by the database finishes it.
struct DatasyncEventPublisher<Output>: Publisher {
  typealias Failure = WebcomError

  let node: DatasyncNode
  let eventType: DatasyncEventType
  let childrenConstraint: DatasyncChildrenConstraint
  /// Whether only the latest event of each delivery counts (see ``LatestEvent``).
  let coalesces: Bool
  let transform: (DatasyncEvent) -> Output?

  init(
    node: DatasyncNode, eventType: DatasyncEventType,
    childrenConstraint: DatasyncChildrenConstraint, coalesces: Bool = false,
    transform: @escaping (DatasyncEvent) -> Output?
  ) {
    self.node = node
    self.eventType = eventType
    self.childrenConstraint = childrenConstraint
    self.coalesces = coalesces
    self.transform = transform
  }

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == WebcomError {
    let stream = DatasyncStreamSubscription(
      subscriber, label: "DatasyncStreams.events \(node.path)")
    subscriber.receive(subscription: stream)
    let transform = self.transform
    let onEvent: (DatasyncEvent) -> Void
    let onDeliveryEnd: (() -> Void)?
    if coalesces {
      let latest = LatestEvent()
      onEvent = { latest.keep($0) }
      onDeliveryEnd = { [weak stream] in
        guard let stream, let event = latest.take(), let output = transform(event) else { return }
        stream.send(output)
      }
    } else {
      onEvent = { [weak stream] event in
        guard let stream, let output = transform(event) else { return }
        stream.send(output)
      }
      onDeliveryEnd = nil
    }
    guard
      let subscription = stream.subscribe(
        to: node, for: eventType, childrenConstraint: childrenConstraint,
        conflation: coalesces ? .latestEvent : .none, onEvent: onEvent,
        onDeliveryEnd: onDeliveryEnd)
    else { return }
    stream.onTermination { subscription.cancel() }
  }
}

/// The end of a stream for the end of its Datasync subscription: a revocation fails the stream,
/// a cancellation by the database finishes it.
@usableFromInline
func streamCompletion(of completion: DatasyncSubscriptionCompletion)
  -> Subscribers.Completion<WebcomError>
{
  switch completion {
  case .revoked(let error): .failure(error)
  case .cancelled: .finished
  }
}

/// The latest event of a delivery, for a stream that coalesces: kept and taken on the stream's
/// queue only (events and the end of each delivery come there).
private final class LatestEvent {
  private var event: DatasyncEvent?

  func keep(_ event: DatasyncEvent) {
    self.event = event
  }

  func take() -> DatasyncEvent? {
    defer { event = nil }
    return event
  }
}
