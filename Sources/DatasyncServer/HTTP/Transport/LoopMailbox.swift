import Datasync
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread-safe entrance of a server's event loop: other threads hand it tasks, which the loop
/// thread runs in order, and ask it to stop.
///
/// A task receives the loop-confined ``ServerLoop`` as its argument, so nothing of the loop's own
/// state crosses threads. Enqueuing from another thread writes one byte to a pipe the loop
/// watches (once until the loop drains the queue); enqueuing from the loop thread itself needs no
/// wake-up, the loop runs the queue before it waits again.
final class LoopMailbox: @unchecked Sendable {
  /// A unit of work run on the loop thread.
  typealias Task = @Sendable (ServerLoop) -> Void

  /// The read end of the wake-up pipe, watched by the loop.
  let wakeReadDescriptor: Int32
  let wakeWriteDescriptor: Int32

  /// Protects `tasks`, `wakePending`, `isStopRequested`, `isClosed`, `loopThread` and the
  /// pipe's lifetime (it is written and closed under the lock, so no write reaches a descriptor
  /// number reused after the close).
  private let lock = NSLock()
  private var tasks: [Task] = []
  private var wakePending = false
  private var isStopRequested = false
  private var isClosed = false
  private var loopThread: pthread_t?

  init() throws(WebcomError) {
    var descriptors: [Int32] = [0, 0]
    guard pipe(&descriptors) == 0 else {
      throw WebcomError(.internalError, "pipe: \(SocketSystem.describe(errno))")
    }
    for descriptor in descriptors {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL, 0) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
    wakeReadDescriptor = descriptors[0]
    wakeWriteDescriptor = descriptors[1]
  }

  /// Records the loop thread (called once by that thread, before it runs anything).
  func attachLoopThread() {
    lock.withLock { loopThread = pthread_self() }
  }

  /// Whether the caller runs on the loop thread.
  var isOnLoopThread: Bool {
    lock.withLock { loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
  }

  /// Runs `task` on the loop thread, after the tasks enqueued before it.
  ///
  /// - Returns: False when the loop has ended: the task is dropped.
  @discardableResult
  func execute(_ task: @escaping Task) -> Bool {
    lock.withLock {
      guard !isClosed else { return false }
      tasks.append(task)
      let onLoop = loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false
      guard !wakePending, !onLoop else { return true }
      wakePending = true
      wake()
      return true
    }
  }

  /// Asks the loop to stop; returns whether this call made the request.
  func requestStop() -> Bool {
    lock.withLock {
      guard !isStopRequested else { return false }
      isStopRequested = true
      if !isClosed { wake() }
      return true
    }
  }

  /// Whether a stop was requested (loop thread).
  var stopRequested: Bool { lock.withLock { isStopRequested } }

  /// Whether tasks are waiting (loop thread, before it blocks).
  var hasTasks: Bool { lock.withLock { !tasks.isEmpty } }

  /// Takes the waiting tasks, in order (loop thread).
  func takeTasks() -> [Task] {
    lock.withLock {
      wakePending = false
      let taken = tasks
      tasks = []
      return taken
    }
  }

  /// Empties the wake-up pipe (loop thread, when it is readable).
  func drainWakeups() {
    withUnsafeTemporaryAllocation(byteCount: 64, alignment: 1) { buffer in
      while read(wakeReadDescriptor, buffer.baseAddress, buffer.count) > 0 {}
    }
  }

  /// Refuses further tasks and returns those still waiting (loop thread, at its end).
  func close() -> [Task] {
    lock.withLock {
      isClosed = true
      let left = tasks
      tasks = []
      return left
    }
  }

  /// Closes the pipe (loop thread, at its very end, after ``close()``).
  func releaseDescriptors() {
    lock.withLock {
      SocketSystem.closeDescriptor(wakeReadDescriptor)
      SocketSystem.closeDescriptor(wakeWriteDescriptor)
    }
  }

  /// Writes the wake-up byte (under the lock, while the pipe is open).
  private func wake() {
    var byte: UInt8 = 1
    _ = write(wakeWriteDescriptor, &byte, 1)
  }
}
