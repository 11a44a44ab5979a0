/// A small non-recursive mutual-exclusion lock in an object of its own.
///
/// Used for short critical sections that only change state; nothing is called out while it is held.
/// A value that refers to its lock object: copies share the same lock. The lock (a
/// ``StreamsMutex``) lives inline in that object, so each lock costs one allocation and no set-up
/// call when a subscription is set up.
@usableFromInline
package struct StreamsLock: Sendable {
  @usableFromInline let storage = Storage()

  @inlinable
  package init() {}

  @inlinable
  package func lock() {
    storage.mutex.lock()
  }

  @inlinable
  package func unlock() {
    storage.mutex.unlock()
  }

  /// Takes and releases the lock at once, which orders after this call what the thread that last
  /// released it did before. The async channels call it when a task they resumed outside the
  /// lock runs again: the runtime orders the resumption, but when it comes before the task has
  /// suspended, the thread sanitizer misses that order (swiftlang/swift#57803) and would report
  /// the contents of the value handed over as a race.
  @inlinable
  package func synchronize() {
    lock()
    unlock()
  }

  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// The heap object holding the lock inline.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let mutex = StreamsMutex()

    @inlinable
    init() {}
  }
}
