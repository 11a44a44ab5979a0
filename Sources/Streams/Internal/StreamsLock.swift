import Synchronization

/// A small non-recursive mutual-exclusion lock.
///
/// Used for short critical sections that only change state; nothing is called out while it is held.
/// A value that refers to its mutex: copies share the same lock. The mutex is the standard
/// library's `Mutex`, stored in one small heap object, so each lock costs one allocation when it
/// is set up and no platform set-up or tear-down call; a free lock is taken and released by an
/// atomic compare-and-exchange inlined where it is used.
@usableFromInline
package struct StreamsLock: Sendable {
  @usableFromInline let storage: Storage

  @usableFromInline
  package init() {
    storage = Storage()
  }

  @inlinable
  package func lock() {
    storage.mutex._unsafeLock()
  }

  @inlinable
  package func unlock() {
    storage.mutex._unsafeUnlock()
  }

  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// The heap object holding the mutex.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let mutex = Mutex<Void>(())

    @usableFromInline
    init() {}
  }
}
