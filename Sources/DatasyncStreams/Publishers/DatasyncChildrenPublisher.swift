import Datasync
import Foundation
import Streams

/// The publisher behind `children(as:)`: two Datasync subscriptions on one queue — child events,
/// then value changes, whose first event marks the initial load as complete and each later one
/// the end of a write — folded by a ``ChildrenAccumulator``, which emits once per delivery: when
/// the stream's queue is behind, the writes waiting for it coalesce into one emission.
///
/// The publisher is reached through `AnyPublisher`, unspecialised, so it keeps a `start` closure
/// made by its `@inlinable` initialiser where the element type is known (in `children(as:)`):
/// the stream behind it, its subscription and the folding of each change are specialised with
/// that type, and reach the subscriber through an `AnySubscriber` (no code generic over the
/// subscriber's type runs per change).
@usableFromInline
struct DatasyncChildrenPublisher<Value>: Publisher {
  @usableFromInline typealias Output = DatasyncChildren<Value>
  @usableFromInline typealias Failure = WebcomError

  @usableFromInline let start: (AnySubscriber<DatasyncChildren<Value>, WebcomError>) -> Void

  @inlinable
  init(
    node: DatasyncNode, childrenConstraint: DatasyncChildrenConstraint,
    decode: @escaping (DatasyncValue) -> Value?
  ) {
    start = { subscriber in
      Self.start(subscriber, node: node, childrenConstraint: childrenConstraint, decode: decode)
    }
  }

  @usableFromInline
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == WebcomError {
    start(AnySubscriber(subscriber))
  }

  @inlinable
  static func start(
    _ subscriber: AnySubscriber<DatasyncChildren<Value>, WebcomError>, node: DatasyncNode,
    childrenConstraint: DatasyncChildrenConstraint, decode: @escaping (DatasyncValue) -> Value?
  ) {
    let stream = DatasyncStreamSubscription(
      subscriber, label: "DatasyncStreams.children \(node.path)")
    subscriber.receive(subscription: stream)
    let state = AccumulatorState(ChildrenAccumulator(decode: decode))
    // Both subscriptions use the same constraint, so they share one view of the client: its value
    // event of a write comes after its own child events of that write and exists whenever they
    // do (a window's value changes exactly when a child enters, leaves or changes in it). The
    // batch therefore ends right after the window's child events, whichever other views of the
    // node other subscriptions use.
    guard
      let children = stream.subscribe(
        to: node, for: .child(addition: true, change: true, removal: true),
        childrenConstraint: childrenConstraint, conflation: .latestEventPerChild,
        onEvent: { event in state.apply(event) }, onDeliveryEnd: nil)
    else { return }
    // The value events only mark the end of each write: without data, one waiting for a busy
    // queue holds no version of the tree. While the queue is behind, the child events of each
    // child and the marks conflate: what waits is the latest event of each child, then one mark
    // after them, so the backlog is bounded by the children, not by the number of writes.
    guard
      let values = stream.subscribe(
        to: node, for: .value(change: true, withoutData: true),
        childrenConstraint: childrenConstraint, conflation: .latestEvent,
        onEvent: { _ in state.completeWrite() },
        onDeliveryEnd: { [weak stream] in
          guard let stream, let emission = state.completeDelivery() else { return }
          stream.send(emission)
        })
    else {
      children.cancel()
      return
    }
    stream.onTermination {
      children.cancel()
      values.cancel()
    }
  }
}

/// Holds a ``ChildrenAccumulator`` for the callbacks of one stream.
///
/// The callbacks run on one serial queue; the lock makes the confinement explicit and cheap.
@usableFromInline
final class AccumulatorState<Value>: @unchecked Sendable {
  @usableFromInline let lock = NSLock()
  // Protected by `lock`.
  @usableFromInline var accumulator: ChildrenAccumulator<Value>

  @inlinable
  init(_ accumulator: ChildrenAccumulator<Value>) {
    self.accumulator = accumulator
  }

  @inlinable
  func apply(_ event: DatasyncEvent) {
    lock.withLock { accumulator.apply(event) }
  }

  @inlinable
  func completeWrite() {
    lock.withLock { accumulator.completeWrite() }
  }

  @inlinable
  func completeDelivery() -> DatasyncChildren<Value>? {
    lock.withLock { accumulator.completeDelivery() }
  }
}
