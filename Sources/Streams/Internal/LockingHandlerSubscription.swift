import Synchronization

/// A ``HandlerSubscription`` with its own lock, stored in the object itself.
///
/// `StreamsLock` is a separate object; a subscription that derives from this class saves that
/// allocation (and its release) every time a chain is set up. The lock is the standard library's
/// `Mutex`, a stored property of this non-generic class: it needs no set-up or tear-down call (a
/// platform mutex needs both), is reached at a fixed offset, and is taken and released by an
/// atomic compare-and-exchange inlined at the call site when it is free, as it nearly always is.
///
/// Used like `StreamsLock`: short critical sections that only change state, nothing called out
/// while it is held.
@usableFromInline
internal class LockingHandlerSubscription: HandlerSubscription {
  // Guards the state of the subclasses; only taken and released through `lock()` and `unlock()`.
  @usableFromInline final let mutex = Mutex<Void>(())

  @inlinable
  final func lock() {
    mutex._unsafeLock()
  }

  @inlinable
  final func unlock() {
    mutex._unsafeUnlock()
  }
}
