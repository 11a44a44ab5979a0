import Datasync

/// Readiness of one descriptor, as reported by an ``EventPoller``.
struct PollerEvent {
  /// The descriptor.
  let descriptor: Int32
  /// Data (or the end of input, or an error) can be read.
  let isReadable: Bool
  /// Data can be written (or an error is pending).
  let isWritable: Bool
}

/// The kernel facility an event loop waits on: which descriptors to watch for reading and
/// writing, and a wait for their readiness. Level-triggered: a descriptor stays reported as long
/// as it is ready.
///
/// Used only from the loop thread.
protocol EventPoller: AnyObject {
  /// Starts watching `descriptor`.
  func add(_ descriptor: Int32, readable: Bool, writable: Bool) throws(WebcomError)
  /// Changes what `descriptor` is watched for.
  func update(_ descriptor: Int32, readable: Bool, writable: Bool)
  /// Stops watching `descriptor` (before it is closed).
  func remove(_ descriptor: Int32)
  /// Waits up to `timeoutMilliseconds` (-1: no limit) and reports each ready descriptor.
  func wait(timeoutMilliseconds: Int32, _ report: (PollerEvent) -> Void)
  /// Releases the poller's own resources.
  func close()
  /// The descriptor the poller itself holds (nil when it holds none).
  var ownDescriptor: Int32? { get }
}

/// Which ``EventPoller`` a server uses.
enum EventPollerKind: Sendable {
  /// `epoll` (Linux): the cost of a wait grows with the ready descriptors only.
  case epoll
  /// POSIX `poll`: portable, the cost of a wait grows with the watched descriptors.
  case poll

  /// `epoll` on Linux, `poll` elsewhere.
  static var platformDefault: EventPollerKind {
    #if os(Linux)
      .epoll
    #else
      .poll
    #endif
  }

  /// A new poller of this kind (`poll` where `epoll` does not exist).
  func makePoller() throws(WebcomError) -> any EventPoller {
    switch self {
    case .epoll:
      #if os(Linux)
        return try EpollPoller()
      #else
        return PortablePoller()
      #endif
    case .poll:
      return PortablePoller()
    }
  }
}
