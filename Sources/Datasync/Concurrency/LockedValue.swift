import Foundation

/// A value that threads share, read and changed only while its lock is held.
///
/// The project's locked state lives in these boxes rather than in `Synchronization.Mutex`: on
/// Linux, `Mutex` waits with futex calls that ThreadSanitizer does not see, so the sanitizer
/// reports every contended access to a `Mutex`'s value as a race and the suite's race checks
/// would be blind. This box locks with a ``SpinningMutex`` (a POSIX mutex the sanitizer
/// understands).
///
/// As with any lock: keep the closure short, and never call out (user code, callbacks, other
/// locks' owners) from inside it.
package final class LockedValue<Value>: @unchecked Sendable {
  // `lock` protects `value`: every access goes through `withLock`.
  private let lock = SpinningMutex()
  /// Only touched inside `withLock`, with the lock held, so no two accesses ever overlap: the
  /// dynamic exclusivity check (a `swift_beginAccess` per `withLock`) is left out.
  @exclusivity(unchecked) private var value: Value

  /// A box holding `value`.
  package init(_ value: sending Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock, and returns what `body` returns.
  package func withLock<Result, Failure: Error>(
    _ body: (inout sending Value) throws(Failure) -> sending Result
  ) throws(Failure) -> sending Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
