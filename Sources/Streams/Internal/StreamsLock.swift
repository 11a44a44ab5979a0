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
