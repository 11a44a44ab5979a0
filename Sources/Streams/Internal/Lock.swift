#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A small non-recursive mutual-exclusion lock.
///
/// Used for short critical sections that only change state; nothing is called out while it is held.
@usableFromInline
internal final class StreamsLock: @unchecked Sendable {
  // The pointee is the platform mutex; it is only touched through the lock/unlock calls below.
  #if canImport(Darwin)
    @usableFromInline let mutex: UnsafeMutablePointer<os_unfair_lock>
  #else
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  #endif

  @usableFromInline
  init() {
    #if canImport(Darwin)
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: os_unfair_lock())
    #else
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(mutex)
    #endif
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable
  func lock() {
    #if canImport(Darwin)
      os_unfair_lock_lock(mutex)
    #else
      pthread_mutex_lock(mutex)
    #endif
  }

  @inlinable
  func unlock() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(mutex)
    #else
      pthread_mutex_unlock(mutex)
    #endif
  }

  @inlinable
  func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }
}

/// A recursive lock, used only to serialise calls into one subscriber (never to guard state).
///
/// A subscriber may send to the publisher it is subscribed to from inside `receive(_:)`; the
/// recursion keeps such re-entrant calls from deadlocking, as in Combine.
@usableFromInline
internal final class StreamsRecursiveLock: @unchecked Sendable {
  // The pointee is the recursive pthread mutex; it is only touched through lock/unlock.
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  @usableFromInline
  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    var attributes = pthread_mutexattr_t()
    pthread_mutexattr_init(&attributes)
    pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
    pthread_mutex_init(mutex, &attributes)
    pthread_mutexattr_destroy(&attributes)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable
  func lock() { pthread_mutex_lock(mutex) }

  @inlinable
  func unlock() { pthread_mutex_unlock(mutex) }
}
