import Foundation

@testable import DatasyncServer

#if canImport(CLinuxSystem)
  import CLinuxSystem
  import Glibc
#endif

/// Tells what a stopped server still holds of what it held while running: each descriptor that
/// still names the same open file, and its loop thread if that still runs.
///
/// Exact whatever other tests open meanwhile: sockets and pipes are known by their inode (unique
/// while the file is open), the loop thread by its kernel identifier, and the `epoll` descriptor
/// by a copy the probe keeps: a marker registered through the copy shows in the original's
/// `/proc` entry only if both are the same `epoll` instance. Linux only; elsewhere it finds
/// nothing.
final class HeldResourcesProbe {
  private let resources: HTTPServer.HeldResources
  private var inodes: [Int32: UInt64] = [:]
  private var pollerCopy: Int32?

  /// Records what `resources` name, before the server stops.
  init(_ resources: HTTPServer.HeldResources) {
    self.resources = resources
    #if canImport(CLinuxSystem)
      for descriptor in resources.sockets + resources.pipe {
        inodes[descriptor] = Self.inode(of: descriptor)
      }
      if let poller = resources.poller {
        let copy = dup(poller)
        pollerCopy = copy >= 0 ? copy : nil
      }
    #endif
  }

  deinit {
    #if canImport(CLinuxSystem)
      if let pollerCopy { close(pollerCopy) }
    #endif
  }

  /// What the server still holds, described (empty when it released everything).
  func leftovers() -> [String] {
    var held: [String] = []
    #if canImport(CLinuxSystem)
      for (descriptor, inode) in inodes where Self.inode(of: descriptor) == inode {
        held.append("descriptor \(descriptor) (inode \(inode))")
      }
      if let poller = resources.poller, isSameEpoll(poller) {
        held.append("epoll descriptor \(poller)")
      }
      if let thread = resources.threadID, Self.isStillListed(thread: thread) {
        held.append("loop thread \(thread)")
      }
    #endif
    return held
  }

  #if canImport(CLinuxSystem)
    /// Whether the kernel still lists a thread of this process. A joined thread has finished its
    /// work, but the kernel may list it a moment longer while it reaps it (longer on a loaded
    /// machine, or under the thread sanitizer): this waits, boundedly, for that to happen.
    private static func isStillListed(thread: Int32) -> Bool {
      let path = "/proc/self/task/\(thread)"
      let deadline = ContinuousClock.now + .seconds(5)
      while FileManager.default.fileExists(atPath: path) {
        guard ContinuousClock.now < deadline else { return true }
        sched_yield()
      }
      return false
    }

    private static func inode(of descriptor: Int32) -> UInt64? {
      var status = stat()
      return fstat(descriptor, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    /// Whether `descriptor` is still the `epoll` instance the probe keeps a copy of.
    private func isSameEpoll(_ descriptor: Int32) -> Bool {
      guard let pollerCopy else { return false }
      var marker: [Int32] = [0, 0]
      guard pipe(&marker) == 0 else { return false }
      defer {
        close(marker[0])
        close(marker[1])
      }
      var event = epoll_event()
      event.events = EPOLLIN.rawValue
      guard epoll_ctl(pollerCopy, EPOLL_CTL_ADD, marker[0], &event) == 0,
        let inode = Self.inode(of: marker[0]),
        let info = try? String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8)
      else { return false }
      let markerInode = "ino:" + String(inode, radix: 16)
      return info.split(separator: "\n").contains { line in
        line.hasPrefix("tfd:") && line.split(separator: " ").dropFirst().first == "\(marker[0])"
          && line.split(separator: " ").contains { $0 == markerInode }
      }
    }
  #endif
}
