/// A subscription whose `request(_:)` and `cancel()` run handlers its subclass supplies.
///
/// A subscriber reaches its subscription through `any Subscription`, that is through the
/// protocol witness of the subscription's class. For a generic class of this module that witness
/// is the unspecialised implementation, which looks up generic metadata at run time on every
/// call and makes everything it calls downstream unspecialised too. This class is not generic:
/// its witnesses only call the handlers, and a generic subclass creates those in its
/// `@inlinable` initialiser, so they are specialised in the module that builds the chain.
///
/// The handlers receive the subscription itself (they capture nothing), so they neither allocate
/// nor form a reference cycle; a subclass casts it back with `unsafeDowncast`.
@usableFromInline
internal class HandlerSubscription: Subscription, OperatorNamed {
  // Both handlers are set in `init` and never change; the subclass guards its own state.
  @usableFromInline let requestHandler: (HandlerSubscription, Subscribers.Demand) -> Void
  @usableFromInline let cancelHandler: (HandlerSubscription) -> Void

  @inlinable
  init(
    request: @escaping (HandlerSubscription, Subscribers.Demand) -> Void,
    cancel: @escaping (HandlerSubscription) -> Void
  ) {
    requestHandler = request
    cancelHandler = cancel
  }

  /// The name of the publisher this subscription serves; each subclass gives its own.
  @usableFromInline
  var operatorName: String { "Subscription" }

  @inlinable
  final func request(_ demand: Subscribers.Demand) {
    requestHandler(self, demand)
  }

  @inlinable
  final func cancel() {
    cancelHandler(self)
  }
}
