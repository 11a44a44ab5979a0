#if os(Linux)
  import CLinuxSystem
  import Glibc
  import Datasync

  /// An ``EventPoller`` on Linux `epoll`, level-triggered.
  final class EpollPoller: EventPoller {
    private let descriptor: Int32
    private var events = [epoll_event](repeating: epoll_event(), count: 256)

    var ownDescriptor: Int32? { descriptor }

    init() throws(WebcomError) {
      descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
      guard descriptor >= 0 else {
        throw WebcomError(.internalError, "epoll_create1: \(SocketSystem.describe(errno))")
      }
    }

    func add(_ descriptor: Int32, readable: Bool, writable: Bool) throws(WebcomError) {
      guard control(EPOLL_CTL_ADD, descriptor, readable: readable, writable: writable) else {
        throw WebcomError(.internalError, "epoll_ctl: \(SocketSystem.describe(errno))")
      }
    }

    func update(_ descriptor: Int32, readable: Bool, writable: Bool) {
      _ = control(EPOLL_CTL_MOD, descriptor, readable: readable, writable: writable)
    }

    func remove(_ descriptor: Int32) {
      var unused = epoll_event()
      _ = epoll_ctl(self.descriptor, EPOLL_CTL_DEL, descriptor, &unused)
    }

    func wait(timeoutMilliseconds: Int32, _ report: (PollerEvent) -> Void) {
      let count = events.withUnsafeMutableBufferPointer {
        epoll_wait(descriptor, $0.baseAddress, Int32($0.count), timeoutMilliseconds)
      }
      guard count > 0 else { return }
      let failure = EPOLLERR.rawValue | EPOLLHUP.rawValue
      for index in 0..<Int(count) {
        let event = events[index]
        report(
          PollerEvent(
            descriptor: event.data.fd,
            isReadable: event.events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | failure) != 0,
            isWritable: event.events & (EPOLLOUT.rawValue | failure) != 0))
      }
    }

    func close() {
      SocketSystem.closeDescriptor(descriptor)
    }

    private func control(_ operation: Int32, _ target: Int32, readable: Bool, writable: Bool)
      -> Bool
    {
      var event = epoll_event()
      event.events =
        (readable ? EPOLLIN.rawValue | EPOLLRDHUP.rawValue : 0) | (writable ? EPOLLOUT.rawValue : 0)
      event.data.fd = target
      return epoll_ctl(descriptor, operation, target, &event) == 0
    }
  }
#endif
