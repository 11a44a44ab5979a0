/// A ``HandlerSubscription`` with its own lock, stored in the object itself.
///
/// `StreamsLock` is a separate object; a subscription that derives from this class saves that
/// allocation (and its release) every time a chain is set up. The lock is a ``StreamsMutex``, a
/// stored property of this non-generic class: it needs no set-up or tear-down call, is reached at
/// a fixed offset, and is taken and released by one atomic operation each, inlined at the call
/// site, when it is free, as it nearly always is.
///
/// Used like `StreamsLock`: short critical sections that only change state, nothing called out
/// while it is held.
@usableFromInline
internal class LockingHandlerSubscription: HandlerSubscription {
  // Guards the state of the subclasses; only taken and released through `lock()` and `unlock()`.
  @usableFromInline final let mutex = StreamsMutex()

  @inlinable
  final func lock() {
    mutex.lock()
  }

  @inlinable
  final func unlock() {
    mutex.unlock()
  }
}
