import Datasync

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The POSIX socket calls the server uses, with the platform differences in one place.
///
/// Sockets are non-blocking and close-on-exec. A write never raises `SIGPIPE`: Linux passes
/// `MSG_NOSIGNAL` to every `send`, Apple platforms set `SO_NOSIGPIPE` on every socket.
enum SocketSystem {
  /// The outcome of a read or a write on a non-blocking socket.
  enum Transfer {
    /// This many bytes moved (more than zero).
    case bytes(Int)
    /// Nothing can move now; wait for readiness.
    case wouldBlock
    /// The peer closed its side (read) — end of input.
    case endOfInput
    /// The connection failed (reset, broken pipe, ...).
    case failed(Int32)
  }

  #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    private static let streamType = SOCK_STREAM
    private static let sendFlags: Int32 = 0
  #endif

  /// The text of `errno` for a message: `"Address already in use (errno 98)"`.
  static func describe(_ error: Int32) -> String {
    "\(String(cString: strerror(error))) (errno \(error))"
  }

  /// Opens a non-blocking listening socket on `host:port` (port 0 picks a free port).
  ///
  /// - Returns: The socket and the port it is bound to.
  /// - Throws: `invalidArgument` naming the address when it cannot be resolved or bound.
  static func openListener(host: String, port: Int, backlog: Int32) throws(WebcomError) -> (
    descriptor: Int32, port: Int
  ) {
    guard (0...65_535).contains(port) else {
      throw WebcomError(.invalidArgument, "the port \(port) is not between 0 and 65535")
    }
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamType
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
    var addresses: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &addresses)
    guard status == 0, let first = addresses else {
      throw WebcomError(
        .invalidArgument,
        "cannot resolve the host \"\(host)\": \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(first) }
    var failure = "no address"
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let address = candidate {
      candidate = address.pointee.ai_next
      let descriptor = socket(address.pointee.ai_family, streamType, 0)
      guard descriptor >= 0 else {
        failure = "socket: " + describe(errno)
        continue
      }
      var one: Int32 = 1
      setsockopt(
        descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
      guard configure(descriptor) else {
        failure = "fcntl: " + describe(errno)
        _ = close(descriptor)
        continue
      }
      guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
        failure = "bind: " + describe(errno)
        _ = close(descriptor)
        continue
      }
      guard listen(descriptor, backlog) == 0 else {
        failure = "listen: " + describe(errno)
        _ = close(descriptor)
        continue
      }
      var storage = sockaddr_storage()
      var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
      let named = withUnsafeMutablePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          getsockname(descriptor, $0, &length)
        }
      }
      guard named == 0, let boundPort = self.port(of: storage) else {
        failure = "getsockname: " + describe(errno)
        _ = close(descriptor)
        continue
      }
      return (descriptor, boundPort)
    }
    throw WebcomError(.invalidArgument, "cannot listen on \(host):\(port): \(failure)")
  }

  /// Accepts one pending connection, made non-blocking, without Nagle's delay.
  ///
  /// - Returns: The socket and the peer's numeric address, or the `errno` of the failure
  ///   (`EAGAIN` when no connection is pending).
  static func acceptConnection(from listener: Int32) -> Result<
    (descriptor: Int32, address: String), Errno
  > {
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    let descriptor = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        accept(listener, $0, &length)
      }
    }
    guard descriptor >= 0 else { return .failure(Errno(code: errno)) }
    guard configure(descriptor) else {
      let code = errno
      _ = close(descriptor)
      return .failure(Errno(code: code))
    }
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    return .success((descriptor, numericAddress(of: storage, length: length)))
  }

  /// Reads into `buffer`.
  static func readSome(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Transfer
  {
    while true {
      let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
      if count > 0 { return .bytes(count) }
      if count == 0 { return .endOfInput }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: return .failed(code)
      }
    }
  }

  /// Writes from `bytes`, never raising `SIGPIPE`.
  static func writeSome(_ descriptor: Int32, from bytes: UnsafeRawBufferPointer) -> Transfer {
    while true {
      let count = send(descriptor, bytes.baseAddress, bytes.count, sendFlags)
      if count >= 0 { return .bytes(count) }
      switch errno {
      case EINTR: continue
      case EAGAIN, EWOULDBLOCK: return .wouldBlock
      case let code: return .failed(code)
      }
    }
  }

  /// Closes a descriptor.
  static func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
  }

  /// Makes a socket non-blocking and close-on-exec (and, on Apple platforms, free of
  /// `SIGPIPE`).
  private static func configure(_ descriptor: Int32) -> Bool {
    let flags = fcntl(descriptor, F_GETFL, 0)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0,
      fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0
    else { return false }
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return true
  }

  private static func port(of storage: sockaddr_storage) -> Int? {
    var storage = storage
    switch Int32(storage.ss_family) {
    case AF_INET:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin_port))
        }
      }
    case AF_INET6:
      return withUnsafePointer(to: &storage) {
        $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
          Int(UInt16(bigEndian: $0.pointee.sin6_port))
        }
      }
    default:
      return nil
    }
  }

  private static func numericAddress(of storage: sockaddr_storage, length: socklen_t) -> String {
    var storage = storage
    var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
    let status = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        getnameinfo(
          $0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
      }
    }
    guard status == 0 else { return "?" }
    return host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  }
}

/// An `errno` value.
struct Errno: Error {
  let code: Int32
}
