#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A ``HandlerSubscription`` with its own lock, stored in the object itself.
///
/// `StreamsLock` is a separate object; a subscription that derives from this class saves that
/// allocation (and its release) every time a chain is set up. The lock is the platform mutex
/// (so the thread sanitizer sees it), a stored property of this non-generic class: it is set up
/// and torn down in code that is not generic, and reached at a fixed offset.
///
/// Used like `StreamsLock`: short critical sections that only change state, nothing called out
/// while it is held.
@usableFromInline
internal class LockingHandlerSubscription: HandlerSubscription {
  #if canImport(Darwin)
    @usableFromInline typealias Mutex = os_unfair_lock
  #else
    @usableFromInline typealias Mutex = pthread_mutex_t
  #endif

  // The platform mutex, only passed by address to the platform's lock and unlock calls (a stored
  // property of a class, so its address is the object's own storage and does not change).
  @exclusivity(unchecked) @usableFromInline final var mutex = Mutex()

  @inlinable
  override init(
    request: @escaping (HandlerSubscription, Subscribers.Demand) -> Void,
    cancel: @escaping (HandlerSubscription) -> Void
  ) {
    super.init(request: request, cancel: cancel)
    #if !canImport(Darwin)
      pthread_mutex_init(&mutex, nil)
    #endif
  }

  deinit {
    #if !canImport(Darwin)
      pthread_mutex_destroy(&mutex)
    #endif
  }

  @inlinable
  final func lock() {
    #if canImport(Darwin)
      os_unfair_lock_lock(&mutex)
    #else
      _ = pthread_mutex_lock(&mutex)
    #endif
  }

  @inlinable
  final func unlock() {
    #if canImport(Darwin)
      os_unfair_lock_unlock(&mutex)
    #else
      _ = pthread_mutex_unlock(&mutex)
    #endif
  }
}
