#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A mutual-exclusion lock for a critical section that many threads want often and hold
/// briefly: on Linux, a waiter first spins for a short while (an adaptive POSIX mutex) before it
/// sleeps, so that a lock freed a moment later costs no sleep and no wake-up (two system calls
/// and a context switch); elsewhere, the system's default mutex.
///
/// `NSLock` sleeps at once: where writers on several threads take turns on the database's lock,
/// those sleeps and wake-ups were the largest part of the time spent in the kernel. It is a
/// POSIX mutex, which the thread sanitizer understands (see ``LockedValue``, which locks with
/// it).
final class SpinningMutex: @unchecked Sendable {
  // The mutex is only used through its own calls, which make it thread-safe; the pointer never
  // changes.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    #if os(Linux)
      pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
    #endif
    let status = pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
    precondition(status == 0, "pthread_mutex_init failed with error \(status)")
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

  /// Runs `body` with the lock held and returns what it returns.
  func withLock<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure)
    -> Result
  {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Takes the lock, waiting for it; pair with ``unlock()`` on the same thread, or prefer
  /// ``withLock(_:)``.
  func lock() {
    pthread_mutex_lock(mutex)
  }

  /// Releases the lock taken by ``lock()`` on this thread.
  func unlock() {
    pthread_mutex_unlock(mutex)
  }
}
