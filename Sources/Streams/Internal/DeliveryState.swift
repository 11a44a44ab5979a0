/// Where a subscription stands with its downstream.
@usableFromInline
package enum DeliveryPhase: Sendable {
  /// Values are accepted and delivered as demand allows.
  case open
  /// A completion waits behind the values still queued; nothing more is accepted.
  case completing
  /// The completion was delivered or the downstream cancelled; the downstream is released.
  case closed
}

/// The downstream side of a subscription: the subscriber, its demand, the values waiting for it,
/// the completion and the phase.
///
/// A value without demand waits in the queue until the downstream asks (subscriptions that drop
/// such values check ``unusedDemand`` before pushing). A failure queued with ``finish(_:)`` is
/// delivered as soon as the downstream is free, dropping the values still waiting; a normal
/// finish, or a completion queued with ``finishAfterWaitingValues(_:)``, comes after them.
///
/// It is a value without a lock: the ``DeliveringSubscription`` that holds it guards it with its
/// own lock and runs the delivery loop.
@usableFromInline
package struct DeliveryState<Downstream: Subscriber> {
  @usableFromInline
  package typealias Output = Downstream.Input
  @usableFromInline
  package typealias Completion = Subscribers.Completion<Downstream.Failure>

  // Fields of fixed layout first, so that unspecialised code reaches them at static offsets;
  // those whose layout depends on the downstream's types come last.
  /// Demand not yet used by a delivered value (values waiting in the queue have not used it).
  @usableFromInline
  package var demand = Subscribers.Demand.none
  @usableFromInline
  var head = 0
  /// The number of values waiting for demand.
  @usableFromInline
  package var bufferedCount = 0
  /// Whether a thread is inside a call to the downstream (or the downstream is receiving its
  /// subscription); the others leave what they bring in the queue for it.
  @usableFromInline
  package var isDelivering = false
  @usableFromInline
  package var phase = DeliveryPhase.open
  /// The subscriber, boxed so that lending it moves one reference; nil once closed (and while
  /// lent, see ``lendDownstream()``). A thread handing the subscriber its subscription holds the
  /// box, which retains one object where a copy of the subscriber would retain all it holds.
  @usableFromInline
  var downstreamBox: DownstreamBox<Downstream>?
  @usableFromInline
  var queue: [Output] = []
  @usableFromInline
  var completion = PendingCompletion<Downstream.Failure>.none

  @inlinable
  package init(downstream: consuming Downstream) {
    downstreamBox = DownstreamBox(consume downstream)
  }

  @inlinable
  package var isOpen: Bool { phase == .open }

  @inlinable
  package var isClosed: Bool { phase == .closed }

  /// Demand that the values already waiting will not use.
  @inlinable
  package var unusedDemand: Subscribers.Demand { demand - bufferedCount }

  /// Queues `value` for delivery; ignored unless open.
  @inlinable
  package mutating func push(_ value: Output) {
    guard phase == .open else { return }
    queue.append(value)
    bufferedCount += 1
  }

  /// Queues `completion`; a failure drops the values still waiting. Ignored unless open.
  @inlinable
  package mutating func finish(_ completion: Completion) {
    guard phase == .open else { return }
    phase = .completing
    self.completion = PendingCompletion(completion)
    if case .failure = completion { removeAll() }
  }

  /// Queues `completion` behind the values already waiting, even a failure. Ignored unless open.
  @inlinable
  package mutating func finishAfterWaitingValues(_ completion: Completion) {
    guard phase == .open else { return }
    phase = .completing
    self.completion = PendingCompletion(completion)
  }

  /// Closes the delivery: returns the downstream (nil while it is lent to the delivering thread,
  /// which then releases it) and the values that were waiting, to release after unlocking; nil
  /// when it was already closed.
  @inlinable
  package mutating func close() -> (downstream: DownstreamBox<Downstream>?, dropped: [Output])? {
    guard phase != .closed else { return nil }
    phase = .closed
    let downstream = downstreamBox.take()
    completion = .none
    return (downstream, removeAll())
  }

  /// Moves the boxed downstream out to the thread that starts delivering (which must have set
  /// `isDelivering`), so that it calls the downstream without copying it: copying a chain of
  /// operator subscribers retains every closure and object in it. The thread gives it back with
  /// ``returnDownstream(_:)`` when it stops delivering; a close meanwhile leaves it to that thread
  /// to release.
  @inlinable @inline(__always)
  package mutating func lendDownstream() -> DownstreamBox<Downstream>? {
    downstreamBox.take()
  }

  /// Takes back the downstream lent by ``lendDownstream()``, while the delivery is not closed.
  ///
  /// While the downstream is lent its slot holds nil (nothing else stores into it but nil), and
  /// nil holds nothing to release, so the box is moved into the slot without destroying the nil
  /// first: an assignment would call the runtime to release it on each delivery. It goes through
  /// an optional emptied by `take()` rather than a closure capturing `lent`, which would retain
  /// the box and release the original.
  @inlinable @inline(__always)
  package mutating func returnDownstream(_ lent: consuming DownstreamBox<Downstream>) {
    var returning = Optional(consume lent)
    withUnsafeMutablePointer(to: &downstreamBox) { slot in
      slot.initialize(to: returning.take())
    }
  }

  /// Drops the oldest waiting value.
  @inlinable
  mutating func dropOldest() -> Output? {
    guard bufferedCount > 0 else { return nil }
    return takeHead()
  }

  /// Whether the delivery loop has something to deliver: a value with demand for it, or the
  /// completion once no value waits.
  @inlinable
  var canDeliver: Bool {
    (bufferedCount > 0 && demand > 0) || (phase == .completing && bufferedCount == 0)
  }

  /// The next value, taking one unit of demand, if there is a value and demand for it.
  @inlinable
  mutating func popDeliverable() -> Output? {
    guard bufferedCount > 0, demand > 0 else { return nil }
    demand -= 1
    return takeHead()
  }

  /// The completion, once every value before it was delivered; the delivery is then closed (a
  /// lent downstream is not taken back: its holder delivers the completion, then releases it).
  @inlinable @inline(__always)
  mutating func takeReadyCompletion() -> Completion? {
    guard phase == .completing, bufferedCount == 0, let completion = completion.completion else {
      return nil
    }
    phase = .closed
    downstreamBox = nil
    self.completion = .none
    return completion
  }

  @inlinable
  mutating func takeHead() -> Output {
    let value = queue[head]
    head += 1
    bufferedCount -= 1
    if bufferedCount == 0 {
      queue.removeAll(keepingCapacity: true)
      head = 0
    }
    return value
  }

  /// Empties the queue, returning what it held so it can be released after unlocking.
  @discardableResult
  @inlinable
  mutating func removeAll() -> [Output] {
    guard bufferedCount > 0 else { return [] }
    let dropped = Array(queue[head...])
    queue = []
    head = 0
    bufferedCount = 0
    return dropped
  }
}

/// A completion waiting behind queued values: `.finished` as a case of its own, a failure boxed.
///
/// Its layout does not depend on the failure type, and so neither does that of ``DeliveryState``:
/// code not specialised for the downstream (the deinit of the subscription holding the state)
/// releases the state field by field instead of looking up its generic metadata at run time and
/// destroying it through its value witnesses. Only a failure allocates, once.
@usableFromInline
enum PendingCompletion<Failure: Error> {
  case none
  case finished
  case failure(FailureBox<Failure>)

  @inlinable
  init(_ completion: Subscribers.Completion<Failure>) {
    switch completion {
    case .finished: self = .finished
    case .failure(let error): self = .failure(FailureBox(error))
    }
  }

  /// The completion waiting, if any.
  @inlinable
  var completion: Subscribers.Completion<Failure>? {
    switch self {
    case .none: nil
    case .finished: .finished
    case .failure(let box): .failure(box.error)
    }
  }
}

/// A failure held by reference (see ``PendingCompletion``).
@usableFromInline
final class FailureBox<Failure: Error> {
  @usableFromInline let error: Failure

  @inlinable
  init(_ error: Failure) {
    self.error = error
  }
}
