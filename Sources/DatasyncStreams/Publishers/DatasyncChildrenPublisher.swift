import Datasync
import Foundation
import Streams

/// The publisher behind `children(as:)`: two Datasync subscriptions on one queue — child events,
/// then value changes, whose first event marks the initial load as complete — folded by a
/// ``ChildrenAccumulator``.
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
    let children = node.subscribe(
      to: .child(addition: true, change: true, removal: true),
      childrenConstraint: childrenConstraint, stores: false, queue: stream.queue,
      onEvent: { event in state.apply(event) },
      onCompletion: { [weak stream] completion in
        stream?.finish(streamCompletion(of: completion))
      })
    guard let children else {
      stream.finishLater(
        .failure(
          invalidRequest(.child(addition: true, change: true, removal: true), childrenConstraint)))
      return
    }
    let values = node.subscribe(
      to: .valueChange, stores: false, queue: stream.queue,
      onEvent: { [weak stream] _ in
        guard let stream, let emission = state.completeBatch() else { return }
        stream.send(emission)
      },
      onCompletion: { [weak stream] completion in
        stream?.finish(streamCompletion(of: completion))
      })
    stream.onTermination {
      children.cancel()
      values?.cancel()
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

  func completeBatch() -> DatasyncChildren<Value>? {
    lock.withLock { accumulator.completeBatch() }
  }
}
