import Datasync
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread of a server's event loop, joined when the server stops.
///
/// ``waitForEnd()`` from another thread joins it (a concurrent second caller waits for the
/// first); from the loop thread itself (a handler or a stream callback stopping the server) it
/// cannot wait, so it detaches the thread, which then ends on its own.
final class LoopThread: @unchecked Sendable {
  private enum State {
    /// Created; the thread handle is not known yet.
    case starting(detachOnStart: Bool)
    case running(pthread_t)
    case joining
    case joined
    case detached
  }

  /// Protects `state`; signalled when it changes.
  private let condition = NSCondition()
  private var state = State.starting(detachOnStart: false)
  private let body: @Sendable () -> Void

  private init(body: @escaping @Sendable () -> Void) {
    self.body = body
  }

  /// Starts a thread running `body`.
  static func start(_ body: @escaping @Sendable () -> Void) throws(WebcomError) -> LoopThread {
    let thread = LoopThread(body: body)
    let argument = Unmanaged.passRetained(thread).toOpaque()
    #if canImport(Darwin)
      var created: pthread_t?
      let status = pthread_create(&created, nil, { LoopThread.main($0) }, argument)
    #else
      var created = pthread_t()
      let status = pthread_create(&created, nil, { LoopThread.main($0!) }, argument)
    #endif
    guard status == 0 else {
      Unmanaged<LoopThread>.fromOpaque(argument).release()
      throw WebcomError(.internalError, "pthread_create: \(SocketSystem.describe(status))")
    }
    #if canImport(Darwin)
      let handle = created!
    #else
      let handle = created
    #endif
    thread.condition.withLock {
      if case .starting(detachOnStart: true) = thread.state {
        pthread_detach(handle)
        thread.state = .detached
      } else {
        thread.state = .running(handle)
      }
      thread.condition.broadcast()
    }
    return thread
  }

  private static func main(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<LoopThread>.fromOpaque(argument).takeRetainedValue().body()
    return nil
  }

  /// Waits until the thread has ended (joins it), or detaches it when called on the thread
  /// itself.
  func waitForEnd(isCurrentThread: Bool) {
    condition.lock()
    defer { condition.unlock() }
    if isCurrentThread {
      switch state {
      case .starting: state = .starting(detachOnStart: true)
      case .running(let handle):
        pthread_detach(handle)
        state = .detached
      case .joining, .joined, .detached: break
      }
      return
    }
    while true {
      switch state {
      case .starting:
        condition.wait()
      case .running(let handle):
        state = .joining
        condition.unlock()
        pthread_join(handle, nil)
        condition.lock()
        state = .joined
        condition.broadcast()
        return
      case .joining:
        condition.wait()
      case .joined, .detached:
        return
      }
    }
  }
}
