import Datasync
import Foundation

/// The event streams a server has open: it sends each a `keep-alive` event periodically and
/// closes them all when the server stops.
final class StreamRegistry: @unchecked Sendable {
  /// One open stream and what feeds it.
  struct Entry {
    let stream: HTTPEventStream
    /// Disconnects what feeds the stream from the back end.
    let close: @Sendable () -> Void
  }

  /// Protects `entries` and `nextIdentifier`; signalled when a stream is added or removed.
  private let lock = NSCondition()
  private var entries: [UInt64: Entry] = [:]
  private var nextIdentifier: UInt64 = 0

  /// The number of open streams.
  var count: Int { lock.withLock { entries.count } }

  /// Registers an open stream; returns the identifier that removes it.
  func add(_ stream: HTTPEventStream, close: @escaping @Sendable () -> Void) -> UInt64 {
    lock.withLock {
      nextIdentifier += 1
      entries[nextIdentifier] = Entry(stream: stream, close: close)
      lock.broadcast()
      return nextIdentifier
    }
  }

  /// Forgets a stream (once it ended).
  func remove(_ identifier: UInt64) {
    lock.withLock {
      _ = entries.removeValue(forKey: identifier)
      lock.broadcast()
    }
  }

  /// Waits until at most `count` streams are open, or the deadline passes; returns whether the
  /// count fell that low.
  func wait(untilAtMost count: Int, deadline: Date) -> Bool {
    lock.withLock {
      while entries.count > count {
        if !lock.wait(until: deadline) { return entries.count <= count }
      }
      return true
    }
  }

  /// Waits until at least `count` streams are open, or the deadline passes; returns whether
  /// that many are.
  func wait(untilAtLeast count: Int, deadline: Date) -> Bool {
    lock.withLock {
      while entries.count < count {
        if !lock.wait(until: deadline) { return entries.count >= count }
      }
      return true
    }
  }

  /// Sends `keep-alive` to every open stream (a stream that has ended meanwhile is skipped).
  func sendKeepAlives() {
    let streams = lock.withLock { entries.values.map(\.stream) }
    let event = HostedEvent.keepAlive
    for stream in streams {
      try? stream.send(event: event.name, data: event.data)
    }
  }

  /// Closes every stream and disconnects what feeds them.
  func closeAll() {
    let closing = lock.withLock {
      defer {
        entries = [:]
        lock.broadcast()
      }
      return Array(entries.values)
    }
    for entry in closing {
      entry.close()
      entry.stream.close()
    }
  }
}
