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
/// A value that refers to its platform mutex: copies share the same lock. The mutex lives in the
/// tail of one heap object (rather than in an object that points to a separately allocated mutex),
/// so each lock costs one allocation when a subscription is set up.
@usableFromInline
package struct StreamsLock: @unchecked Sendable {
  // `@unchecked Sendable`: `storage` only holds the platform mutex, touched through the
  // lock/unlock calls below, which make it safe to share.
  @usableFromInline let storage: Storage

  @usableFromInline
  package init() {
    storage = unsafeDowncast(
      Storage.create(minimumCapacity: 1) { buffer in
        buffer.withUnsafeMutablePointerToElements { mutex in
          #if canImport(Darwin)
            mutex.initialize(to: os_unfair_lock())
          #else
            mutex.initialize(to: pthread_mutex_t())
            pthread_mutex_init(mutex, nil)
          #endif
        }
      },
      to: Storage.self)
  }

  @inlinable
  package func lock() {
    storage.withUnsafeMutablePointerToElements { mutex in
      #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
      #else
        _ = pthread_mutex_lock(mutex)
      #endif
    }
  }

  @inlinable
  package func unlock() {
    storage.withUnsafeMutablePointerToElements { mutex in
      #if canImport(Darwin)
        os_unfair_lock_unlock(mutex)
      #else
        _ = pthread_mutex_unlock(mutex)
      #endif
    }
  }

  @inlinable
  package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// The heap object holding the platform mutex in its tail.
  #if canImport(Darwin)
    @usableFromInline typealias Mutex = os_unfair_lock
  #else
    @usableFromInline typealias Mutex = pthread_mutex_t
  #endif

  @usableFromInline
  final class Storage: ManagedBuffer<Void, Mutex> {
    deinit {
      withUnsafeMutablePointerToElements { mutex in
        #if !canImport(Darwin)
          pthread_mutex_destroy(mutex)
        #endif
        _ = mutex.deinitialize(count: 1)
      }
    }
  }
}
