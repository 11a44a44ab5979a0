import Datasync
import Foundation
import Streams

/// The publisher behind `children(as:)`: two Datasync subscriptions on one queue — child events,
/// then value changes, whose first event marks the initial load as complete and each later one
/// the end of a write — folded by a ``ChildrenAccumulator``, which emits once per delivery: when
/// the stream's queue is behind, the writes waiting for it coalesce into one emission.
struct DatasyncChildrenPublisher<Value>: Publisher {
  typealias Output = DatasyncChildren<Value>
  typealias Failure = WebcomError

  let node: DatasyncNode
  let childrenConstraint: DatasyncChildrenConstraint
  let decode: (DatasyncValue) -> Value?

  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == WebcomError {
    let stream = DatasyncStreamSubscription(
      subscriber, label: "DatasyncStreams.children \(node.path)")
    subscriber.receive(subscription: stream)
    let state = AccumulatorState(ChildrenAccumulator(decode: decode))
    // Both subscriptions use the same constraint, so they share one view of the client: its value
    // event of a write comes after its own child events of that write and exists whenever they
    // do (a window's value changes exactly when a child enters, leaves or changes in it). The
    // batch therefore ends right after the window's child events, whichever other views of the
    // node other subscriptions use.
    let children: DatasyncSubscription
    do {
      children = try node.subscribeThrows(
        to: .child(addition: true, change: true, removal: true),
        childrenConstraint: childrenConstraint, stores: false, queue: stream.queue,
        onEvent: { event in state.apply(event) },
        onCompletion: { [weak stream] completion in
          stream?.finish(streamCompletion(of: completion))
        })
    } catch {
      stream.finishLater(.failure(error))
      return
    }
    // The value events only mark the end of each write: without data, one waiting for a busy
    // queue holds no version of the tree.
    let values: DatasyncSubscription
    do {
      values = try node.subscribeThrows(
        to: .value(change: true, withoutData: true), childrenConstraint: childrenConstraint,
        stores: false,
        queue: stream.queue,
        onEvent: { _ in state.completeWrite() },
        onDeliveryEnd: { [weak stream] in
          guard let stream, let emission = state.completeDelivery() else { return }
          stream.send(emission)
        },
        onCompletion: { [weak stream] completion in
          stream?.finish(streamCompletion(of: completion))
        })
    } catch {
      children.cancel()
      stream.finishLater(.failure(error))
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
private final class AccumulatorState<Value>: @unchecked Sendable {
  private let lock = NSLock()
  // Protected by `lock`.
  private var accumulator: ChildrenAccumulator<Value>

  init(_ accumulator: ChildrenAccumulator<Value>) {
    self.accumulator = accumulator
  }

  func apply(_ event: DatasyncEvent) {
    lock.withLock { accumulator.apply(event) }
  }

  func completeWrite() {
    lock.withLock { accumulator.completeWrite() }
  }

  func completeDelivery() -> DatasyncChildren<Value>? {
    lock.withLock { accumulator.completeDelivery() }
  }
}
