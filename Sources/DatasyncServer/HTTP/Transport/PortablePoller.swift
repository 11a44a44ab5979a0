import Datasync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An ``EventPoller`` on POSIX `poll`: the same code on every platform.
final class PortablePoller: EventPoller {
  var ownDescriptor: Int32? { nil }

  private var entries: [pollfd] = []
  /// The index in `entries` of each watched descriptor.
  private var indices: [Int32: Int] = [:]

  func add(_ descriptor: Int32, readable: Bool, writable: Bool) throws(WebcomError) {
    indices[descriptor] = entries.count
    entries.append(
      pollfd(fd: descriptor, events: Self.mask(readable: readable, writable: writable), revents: 0))
  }

  func update(_ descriptor: Int32, readable: Bool, writable: Bool) {
    guard let index = indices[descriptor] else { return }
    entries[index].events = Self.mask(readable: readable, writable: writable)
  }

  func remove(_ descriptor: Int32) {
    guard let index = indices.removeValue(forKey: descriptor) else { return }
    let last = entries.count - 1
    if index != last {
      entries[index] = entries[last]
      indices[entries[index].fd] = index
    }
    entries.removeLast()
  }

  func wait(timeoutMilliseconds: Int32, _ report: (PollerEvent) -> Void) {
    let count = entries.withUnsafeMutableBufferPointer {
      poll($0.baseAddress, nfds_t($0.count), timeoutMilliseconds)
    }
    guard count > 0 else { return }
    let failure = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)
    // Reports from a copy: a report may add or remove descriptors.
    for entry in entries where entry.revents != 0 {
      report(
        PollerEvent(
          descriptor: entry.fd,
          isReadable: entry.revents & (Int16(POLLIN) | failure) != 0,
          isWritable: entry.revents & (Int16(POLLOUT) | failure) != 0))
    }
  }

  func close() {
    entries.removeAll()
    indices.removeAll()
  }

  private static func mask(readable: Bool, writable: Bool) -> Int16 {
    (readable ? Int16(POLLIN) : 0) | (writable ? Int16(POLLOUT) : 0)
  }
}
