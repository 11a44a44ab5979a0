import Datasync
import Dispatch
import Streams

/// The subscription of a stream fed by Datasync callbacks: it delivers their outputs to one
/// subscriber, within its demand.
///
/// Outputs are produced on the subscription's serial `queue` (the queue of the underlying
/// Datasync subscriptions) and delivered on it, through the Streams delivery engine, so calls into
/// the subscriber never overlap. Outputs that arrive while the subscriber has no demand are kept,
/// in order and without limit, until it asks for more: a stream of database events never drops
/// one. The completion comes after the kept outputs. `cancel()` runs the termination handler
/// (which cancels the Datasync subscriptions) at once; nothing is delivered after it.
///
/// It is `@inlinable`, so that a stream made where its types are known (`children(as:)`) is
/// specialised with them.
@usableFromInline
final class DatasyncStreamSubscription<Downstream: Subscriber>: Subscription,
  DeliveringSubscription, @unchecked Sendable
{
  // `@unchecked Sendable`: `lock` guards `delivery` and `terminationHandler`; `queue` is
  // immutable.
  @usableFromInline let queue: DispatchQueue
  @usableFromInline let lock = StreamsLock()
  @usableFromInline var delivery: DeliveryState<Downstream>
  @usableFromInline var terminationHandler: (() -> Void)?

  @inlinable
  init(_ downstream: Downstream, label: String) {
    delivery = DeliveryState(downstream: downstream)
    queue = DispatchQueue(label: label)
  }

  @inlinable
  func lockDelivery() { lock.lock() }

  @inlinable
  func unlockDelivery() { lock.unlock() }

  /// Runs `handler` when the stream is cancelled or completes; at once if that already happened.
  @inlinable
  func onTermination(_ handler: @escaping () -> Void) {
    lock.lock()
    guard !delivery.isClosed else {
      lock.unlock()
      handler()
      return
    }
    terminationHandler = handler
    lock.unlock()
  }

  /// Delivers `output` at once when the subscriber is free and has demand, otherwise keeps it
  /// for delivery. Called on `queue`.
  @inlinable
  func send(_ output: Downstream.Input) {
    lock.lock()
    sendAndUnlock(output)
  }

  /// Ends the stream after the kept outputs. Called on `queue`.
  @inlinable
  func finish(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    delivery.finishAfterWaitingValues(completion)
    lock.unlock()
    drain()
  }

  /// Ends the stream from another queue than `queue`.
  @inlinable
  func finishLater(_ completion: Subscribers.Completion<Downstream.Failure>) {
    lock.lock()
    delivery.finishAfterWaitingValues(completion)
    lock.unlock()
    drainLater()
  }

  @inlinable
  func request(_ more: Subscribers.Demand) {
    lock.lock()
    guard !delivery.isClosed, more > 0 else {
      lock.unlock()
      return
    }
    delivery.demand += more
    lock.unlock()
    drainLater()
  }

  @inlinable
  func cancel() {
    lock.lock()
    let handler = terminationHandler
    terminationHandler = nil
    let closed = delivery.close()
    lock.unlock()
    handler?()
    withExtendedLifetime(closed) {}
  }

  /// Runs the termination handler once the subscriber received its completion.
  @inlinable
  func didDeliverCompletion() {
    let handler = lock.withLock {
      defer { terminationHandler = nil }
      return terminationHandler
    }
    handler?()
  }

  /// Delivers on `queue` what demand allows. The closure holds the subscription as an
  /// existential, so that it captures none of its generic types.
  @inlinable
  func drainLater() {
    let target: any DeliveringSubscription & Sendable = self
    queue.async { target.drain() }
  }
}

extension DatasyncStreamSubscription where Downstream.Failure == WebcomError {
  /// Subscribes to events of `node` on the stream's queue, as a source of the stream: the end of
  /// that subscription ends the stream (``streamCompletion(of:)``). When the subscription cannot
  /// be made, the stream fails with the error and the result is nil.
  @inlinable
  func subscribe(
    to node: DatasyncNode, for eventType: DatasyncEventType,
    childrenConstraint: DatasyncChildrenConstraint, conflation: DeliveryConflation,
    onEvent: @escaping (DatasyncEvent) -> Void, onDeliveryEnd: (() -> Void)?
  ) -> DatasyncSubscription? {
    do {
      return try node.subscribeThrows(
        to: eventType, childrenConstraint: childrenConstraint, stores: false, queue: queue,
        conflation: conflation, onEvent: onEvent, onDeliveryEnd: onDeliveryEnd,
        onCompletion: { [weak self] completion in
          self?.finish(streamCompletion(of: completion))
        })
    } catch {
      finishLater(.failure(error))
      return nil
    }
  }
}
