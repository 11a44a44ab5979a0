/// A subject's link to one subscriber, seen by the subject without the subscriber's type.
///
/// Its only state is the lock its subclass guards its own state with, held in the object itself so
/// that a subscription to a subject is one allocation. The subject offers values and the
/// completion through handlers that `SubjectSubscription` creates in its `@inlinable` initialiser,
/// so that delivery runs code specialised for the subscriber in the module that subscribes (see
/// `HandlerSubscription`).
@usableFromInline
internal class SubjectConduit<Output, Failure: Error>: LockingHandlerSubscription {
  // Both handlers are set in `init` and never change; the subclass guards its own state with its
  // lock.
  @usableFromInline let offerHandler: (SubjectConduit, Output, UInt64) -> Void
  @usableFromInline let finishHandler: (SubjectConduit, Subscribers.Completion<Failure>) -> Void

  @inlinable
  init(
    offer: @escaping (SubjectConduit, Output, UInt64) -> Void,
    finish: @escaping (SubjectConduit, Subscribers.Completion<Failure>) -> Void,
    request: @escaping (HandlerSubscription, Subscribers.Demand) -> Void,
    cancel: @escaping (HandlerSubscription) -> Void
  ) {
    offerHandler = offer
    finishHandler = finish
    super.init(request: request, cancel: cancel)
  }

  /// Offers a value sent with send number `sequence` (0 for subjects that keep no value).
  @inlinable
  final func offer(_ value: Output, sequence: UInt64) {
    offerHandler(self, value, sequence)
  }

  /// Delivers the subject's completion.
  @inlinable
  final func finish(_ completion: Subscribers.Completion<Failure>) {
    finishHandler(self, completion)
  }
}
