import Synchronization

#if os(Linux)
  import CLinuxSystem
#endif

/// A small non-recursive mutual-exclusion lock stored inline in the object that holds it.
///
/// Used for short critical sections that only change state; nothing is called out while it is held.
/// Hold it as a `let` of a class (as `StreamsLock` and `LockingHandlerSubscription` do): it is
/// neither copyable nor movable, and it needs no set-up or tear-down call.
///
/// On Linux it is a 32-bit futex word: 0 unlocked, 1 locked, 2 locked with (possibly) a thread
/// asleep waiting for it. Every change of the word is an atomic operation in this module's Swift
/// code, so the thread sanitizer, which instruments this module, sees each acquire and release,
/// including a lock handed over under contention; only the sleep and the wake-up are system calls.
/// (The standard library's `Mutex` hands a contended lock over in the kernel, where the sanitizer
/// cannot see it.) A free lock is taken by one compare-and-exchange and released by one exchange,
/// both inlined at the call site. On Darwin it is the standard library's `Mutex`
/// (`os_unfair_lock`), which the sanitizer intercepts there.
@usableFromInline
package struct StreamsMutex: ~Copyable, Sendable {
  #if os(Linux)
    /// The futex word: `unlocked`, `locked` or `lockedWithWaiters`.
    @usableFromInline let word = Atomic<UInt32>(StreamsMutex.unlocked)

    @inlinable static var unlocked: UInt32 { 0 }
    @inlinable static var locked: UInt32 { 1 }
    @inlinable static var lockedWithWaiters: UInt32 { 2 }
  #else
    @usableFromInline let mutex = Mutex<Void>(())
  #endif

  @inlinable
  package init() {}

  @inlinable
  package borrowing func lock() {
    #if os(Linux)
      let (exchanged, _) = word.compareExchange(
        expected: Self.unlocked, desired: Self.locked, successOrdering: .acquiring,
        failureOrdering: .relaxed)
      if !exchanged { lockContended() }
    #else
      mutex._unsafeLock()
    #endif
  }

  @inlinable
  package borrowing func unlock() {
    #if os(Linux)
      if word.exchange(Self.unlocked, ordering: .releasing) == Self.lockedWithWaiters {
        wakeOneWaiter()
      }
    #else
      mutex._unsafeUnlock()
    #endif
  }

  #if os(Linux)
    /// Takes the lock when the first compare-and-exchange found it held.
    ///
    /// Marks the word `lockedWithWaiters` (so the holder's `unlock` wakes a sleeper) and owns the
    /// lock if it was free; otherwise sleeps while the word still says `lockedWithWaiters` and
    /// tries again. A thread that takes the lock this way leaves the word at `lockedWithWaiters`
    /// even if it was the last waiter, which costs at most one needless wake-up at its unlock.
    @usableFromInline
    borrowing func lockContended() {
      while word.exchange(Self.lockedWithWaiters, ordering: .acquiring) != Self.unlocked {
        withWordAddress { clinux_futex_wait($0, Self.lockedWithWaiters) }
      }
    }

    @usableFromInline
    borrowing func wakeOneWaiter() {
      withWordAddress { clinux_futex_wake_one($0) }
    }

    /// Calls `body` with the address of the futex word itself (not of a copy: an `Atomic` is
    /// neither copyable nor movable, so borrowing it passes the storage it lives in), as the
    /// futex system calls need.
    private borrowing func withWordAddress(_ body: (UnsafeMutablePointer<UInt32>) -> Void) {
      withUnsafePointer(to: word) { atomic in
        body(UnsafeMutableRawPointer(mutating: atomic).assumingMemoryBound(to: UInt32.self))
      }
    }
  #endif
}
