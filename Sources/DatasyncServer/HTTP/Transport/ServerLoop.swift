import Datasync
import Foundation

#if canImport(Glibc)
  import CLinuxSystem
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The event loop of one ``HTTPServer``: one thread that waits on an ``EventPoller`` for the
/// listening socket, the wake-up pipe and every connection, and does all their work — accepting,
/// reading, parsing, calling the handler, writing, timeouts.
///
/// Confined to its thread: other threads reach it only through tasks given to its
/// ``LoopMailbox``. Timeouts are checked by a sweep over the connections a few times per
/// timeout period, so the cost of a wait does not grow with the number of connections.
///
/// Why a loop of our own on `epoll`/`poll` rather than Dispatch sources: all connection state
/// lives on one thread without locks, a read, a parse, a handler call and the write of its
/// answer happen in one pass (no queue hop per event), timeouts need no timer per connection,
/// and stopping is a plain end of the loop followed by closing the descriptors (no
/// cancellation handlers to wait for). `epoll` keeps the cost of a wait proportional to the
/// ready descriptors, so 1,000 idle event streams cost nothing per request; `poll` is the
/// portable fallback (the same code on Apple platforms), and the tests run both.
final class ServerLoop {
  /// The limits, in the units the loop uses.
  struct Settings {
    var maxConnections: Int
    var parserLimits: HTTPRequestParser.Limits
    var readTimeout: UInt64
    var idleTimeout: UInt64
    var lingerTimeout: UInt64
    var eventStreamQueueLimit: Int
    /// The input a busy connection buffers (pipelined requests) before it stops reading.
    var maxBufferedInput: Int
  }

  let settings: Settings
  let handler: any HTTPHandler
  let mailbox: LoopMailbox
  /// The number of open connections, for other threads.
  let openConnections = OpenConnectionGauge()
  /// The port the listener is bound to.
  let port: Int

  private let poller: any EventPoller
  private let listener: Int32
  private var connections: [HTTPConnection?] = []
  private var connectionCount = 0
  private var nextConnectionID: UInt64 = 0
  private var acceptResumesAt: UInt64?
  private let sweepInterval: UInt64
  private var nextSweep: UInt64 = 0
  private var isShuttingDown = false
  /// The monotonic time of the current loop iteration, in nanoseconds.
  private(set) var now: UInt64
  /// Where every connection reads into before keeping what it needs.
  let readBuffer: UnsafeMutableRawBufferPointer

  /// The name of every loop thread, as system tools show it.
  static let threadName = "datasync-http"
  private static let readBufferSize = 65_536
  private static let acceptPause: UInt64 = 100_000_000

  init(
    host: String, port: Int, settings: Settings, pollerKind: EventPollerKind,
    handler: any HTTPHandler
  ) throws(WebcomError) {
    self.settings = settings
    self.handler = handler
    mailbox = try LoopMailbox()
    do throws(WebcomError) {
      poller = try pollerKind.makePoller()
    } catch {
      mailbox.releaseDescriptors()
      throw error
    }
    do throws(WebcomError) {
      (listener, self.port) = try SocketSystem.openListener(host: host, port: port, backlog: 1_024)
      try poller.add(mailbox.wakeReadDescriptor, readable: true, writable: false)
      try poller.add(listener, readable: true, writable: false)
    } catch {
      poller.close()
      mailbox.releaseDescriptors()
      throw error
    }
    sweepInterval = min(
      max(min(settings.readTimeout, settings.idleTimeout) / 4, 5_000_000), 1_000_000_000)
    readBuffer = .allocate(byteCount: Self.readBufferSize, alignment: 16)
    now = Self.monotonicNow()
  }

  deinit {
    readBuffer.deallocate()
  }

  /// The loop thread's body: runs until a stop is requested, then closes everything.
  func run() {
    #if canImport(Darwin)
      pthread_setname_np(Self.threadName)
    #else
      pthread_setname_np(pthread_self(), Self.threadName)
    #endif
    mailbox.attachLoopThread()
    nextSweep = now + sweepInterval
    while !mailbox.stopRequested {
      now = Self.monotonicNow()
      let untilSweep = nextSweep > now ? (nextSweep - now + 999_999) / 1_000_000 : 0
      let timeout = mailbox.hasTasks ? 0 : Int32(min(untilSweep, 1_000))
      poller.wait(timeoutMilliseconds: timeout) { event in
        dispatch(event)
      }
      now = Self.monotonicNow()
      for task in mailbox.takeTasks() { task(self) }
      if now >= nextSweep {
        sweep()
        nextSweep = now + sweepInterval
      }
    }
    shutDown()
  }

  /// The open connection on `descriptor` with this identity, nil when it has closed.
  func connection(_ descriptor: Int32, id: UInt64) -> HTTPConnection? {
    guard descriptor >= 0, Int(descriptor) < connections.count,
      let connection = connections[Int(descriptor)], connection.id == id
    else { return nil }
    return connection
  }

  /// How a stream whose connection is gone ended: the peer left, or the server stopped.
  var reasonForMissingConnection: HTTPEventStream.CloseReason {
    isShuttingDown ? .serverStopped : .peerClosed
  }

  /// Changes what a connection's socket is watched for.
  func watch(_ descriptor: Int32, readable: Bool, writable: Bool) {
    poller.update(descriptor, readable: readable, writable: writable)
  }

  /// Forgets a connection and closes its socket.
  func remove(_ connection: HTTPConnection) {
    let descriptor = connection.descriptor
    poller.remove(descriptor)
    SocketSystem.closeDescriptor(descriptor)
    connections[Int(descriptor)] = nil
    connectionCount -= 1
    openConnections.publish(connectionCount)
    if let resumesAt = acceptResumesAt, resumesAt > now {
      resumeAccepting()
    }
  }

  private func dispatch(_ event: PollerEvent) {
    if event.descriptor == mailbox.wakeReadDescriptor {
      mailbox.drainWakeups()
    } else if event.descriptor == listener {
      acceptConnections()
    } else if Int(event.descriptor) < connections.count,
      let connection = connections[Int(event.descriptor)]
    {
      connection.handle(readable: event.isReadable, writable: event.isWritable)
    }
  }

  private func acceptConnections() {
    for _ in 0..<64 {
      switch SocketSystem.acceptConnection(from: listener) {
      case .success(let accepted):
        guard connectionCount < settings.maxConnections else {
          refuse(accepted.descriptor)
          continue
        }
        admit(accepted.descriptor, address: accepted.address)
      case .failure(let error):
        switch error.code {
        case EINTR, ECONNABORTED:
          continue
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          // Out of descriptors or memory: stop accepting for a moment rather than spin on a
          // listener that stays readable.
          poller.update(listener, readable: false, writable: false)
          acceptResumesAt = now + Self.acceptPause
          return
        default:
          return
        }
      }
    }
  }

  private func admit(_ descriptor: Int32, address: String) {
    do {
      try poller.add(descriptor, readable: true, writable: false)
    } catch {
      SocketSystem.closeDescriptor(descriptor)
      return
    }
    nextConnectionID += 1
    let connection = HTTPConnection(
      descriptor: descriptor, id: nextConnectionID, remoteAddress: address, loop: self)
    if Int(descriptor) >= connections.count {
      connections += Array(repeating: nil, count: Int(descriptor) + 1 - connections.count)
    }
    connections[Int(descriptor)] = connection
    connectionCount += 1
    openConnections.publish(connectionCount)
  }

  /// Answers 503 to a connection beyond the limit and closes it.
  private func refuse(_ descriptor: Int32) {
    var output = ByteQueue(retainedCapacity: 0)
    ResponseEncoding.encode(
      .jsonError(
        .serviceUnavailable,
        message: "the server has reached its limit of \(settings.maxConnections) connections"),
      connection: .close, omitBody: false, into: &output)
    _ = output.withQueuedBytes {
      SocketSystem.writeSome(descriptor, from: UnsafeRawBufferPointer($0))
    }
    _ = shutdown(descriptor, Int32(SHUT_WR))
    SocketSystem.closeDescriptor(descriptor)
  }

  private func resumeAccepting() {
    acceptResumesAt = nil
    poller.update(listener, readable: true, writable: false)
  }

  private func sweep() {
    if let resumesAt = acceptResumesAt, resumesAt <= now { resumeAccepting() }
    for connection in connections {
      connection?.checkTimeouts()
    }
  }

  /// What the loop holds now (on the loop thread).
  func heldResources() -> HTTPServer.HeldResources {
    var sockets = [listener] + connections.compactMap { $0?.descriptor }
    sockets.sort()
    let threadLink = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
    return HTTPServer.HeldResources(
      sockets: sockets, pipe: [mailbox.wakeReadDescriptor, mailbox.wakeWriteDescriptor],
      poller: poller.ownDescriptor,
      threadID: threadLink.flatMap { $0.split(separator: "/").last.flatMap { Int32($0) } })
  }

  /// Closes everything of a loop whose thread could not start.
  func abandon() {
    shutDown()
  }

  private func shutDown() {
    isShuttingDown = true
    poller.remove(listener)
    SocketSystem.closeDescriptor(listener)
    // Tasks queued before the stop run while their connections are open: a stream its owner
    // ended (as a server does with every stream before it stops) writes the end of its body.
    for task in mailbox.takeTasks() { task(self) }
    for connection in connections {
      connection?.close(.serverStopped)
    }
    // Tasks still queued find no connection; those that hold a stream end it.
    for task in mailbox.close() { task(self) }
    poller.close()
    mailbox.releaseDescriptors()
  }

  private static func monotonicNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }
}
