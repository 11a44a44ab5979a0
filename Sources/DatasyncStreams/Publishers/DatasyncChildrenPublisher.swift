import Datasync
import Foundation
import Streams

/// The publisher behind `children(as:)`: two Datasync subscriptions on one queue — child events,
/// then value changes, whose first event marks the initial load as complete and each later one
/// the end of a write — folded by a ``ChildrenAccumulator``, which emits once per delivery: when
/// the stream's queue is behind, the writes waiting for it coalesce into one emission.
///
/// The folding comes from `makeFolder`, a closure written where the element type is known (in the
/// `@inlinable` `children(as:)`), so the folding of each event is specialised with that type
/// although the publisher itself is reached through `AnyPublisher`, unspecialised.
@usableFromInline
struct DatasyncChildrenPublisher<Value>: Publisher {
  @usableFromInline typealias Output = DatasyncChildren<Value>
  @usableFromInline typealias Failure = WebcomError

  @usableFromInline let node: DatasyncNode
  @usableFromInline let childrenConstraint: DatasyncChildrenConstraint
  @usableFromInline let makeFolder: () -> ChildrenFolder<Value>

  @inlinable
  init(
    node: DatasyncNode, childrenConstraint: DatasyncChildrenConstraint,
    makeFolder: @escaping () -> ChildrenFolder<Value>
  ) {
    self.node = node
    self.childrenConstraint = childrenConstraint
    self.makeFolder = makeFolder
  }

  @usableFromInline
  func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == WebcomError {
    let stream = DatasyncStreamSubscription(
      subscriber, label: "DatasyncStreams.children \(node.path)")
    subscriber.receive(subscription: stream)
    let folder = makeFolder()
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
        onEvent: folder.apply,
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
        onEvent: { _ in folder.completeWrite() },
        onDeliveryEnd: { [weak stream] in
          guard let stream, let emission = folder.completeDelivery() else { return }
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

/// The folding of one stream's events: three closures over one ``ChildrenAccumulator``, made by
/// an `@inlinable` initialiser so that they are specialised where the element type is known.
@usableFromInline
struct ChildrenFolder<Value> {
  @usableFromInline let apply: (DatasyncEvent) -> Void
  @usableFromInline let completeWrite: () -> Void
  @usableFromInline let completeDelivery: () -> DatasyncChildren<Value>?

  @inlinable
  init(decode: @escaping (DatasyncValue) -> Value?) {
    let state = AccumulatorState(ChildrenAccumulator(decode: decode))
    apply = { event in state.apply(event) }
    completeWrite = { state.completeWrite() }
    completeDelivery = { state.completeDelivery() }
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
