#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of the test client: a timeout, a closed connection, malformed data.
struct TestClientError: Error, CustomStringConvertible {
  let description: String
}

/// A response as the test client read it.
struct TestResponse {
  var status: Int
  var reason: String
  var headers: [(name: String, value: String)]
  var body: [UInt8]

  /// The first value of a header (any case).
  func header(_ name: String) -> String? {
    headers.first { $0.name.lowercased() == name.lowercased() }?.value
  }

  var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// One block of a Server-Sent Events stream (the lines up to an empty line).
struct TestEvent: Equatable {
  var event: String?
  var id: String?
  var dataLines: [String] = []
  var comments: [String] = []

  var data: String { dataLines.joined(separator: "\n") }
}

/// A small blocking HTTP/1.1 client on raw sockets, for tests: it sends any bytes (malformed
/// ones included) and reads responses, chunked bodies and event streams. Every read waits at
/// most `timeout` seconds, then throws.
///
/// Not thread-safe: used by one thread at a time (a test may hand a client over to a reader
/// thread and leave it alone from then on), hence `@unchecked Sendable`.
final class TestHTTPClient: @unchecked Sendable {
  let descriptor: Int32
  private var received: [UInt8] = []
  /// De-chunked body bytes of an event stream, not yet parsed into events.
  private var streamBody: [UInt8] = []
  private var streamIsChunked = false
  private var streamEnded = false

  init(port: Int, timeout: Int = 10) throws {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else {
      isClosed = true
      throw TestClientError(description: "socket: \(errno)")
    }
    var time = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    #if canImport(Darwin)
      var one: Int32 = 1
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard status == 0 else {
      // No close here: the deinitializer runs when an initializer fails after initializing
      // every property, and closes the socket (closing it twice could close a descriptor
      // another thread has just opened).
      throw TestClientError(description: "connect: errno \(errno)")
    }
  }

  deinit {
    close()
  }

  private var isClosed = false

  /// Closes the socket (idempotent).
  func close() {
    guard !isClosed else { return }
    isClosed = true
    SystemCalls.close(descriptor)
  }

  /// Shuts down the sending side: the server reads the end of input.
  func shutdownWrite() {
    _ = shutdown(descriptor, Int32(SHUT_WR))
  }

  /// Sends text as UTF-8.
  func send(_ text: String) throws {
    try send(Array(text.utf8))
  }

  /// Sends bytes, all of them.
  func send(_ bytes: [UInt8]) throws {
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes {
        SystemCalls.send(descriptor, $0.baseAddress, $0.count, SystemCalls.sendFlags)
      }
      guard count > 0 else { throw TestClientError(description: "send failed: errno \(errno)") }
      offset += count
    }
  }

  /// Reads more bytes into `received`; false at the end of the stream.
  private func receiveMore() throws -> Bool {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count > 0 {
      received += chunk[..<count]
      return true
    }
    if count == 0 || errno == ECONNRESET { return false }
    if errno == EAGAIN || errno == EWOULDBLOCK {
      throw TestClientError(description: "timed out waiting for the server")
    }
    throw TestClientError(description: "recv failed: errno \(errno)")
  }

  /// Reads one line (without its CRLF).
  private func readLine() throws -> String {
    while true {
      if let newline = received.firstIndex(of: 0x0A) {
        var line = Array(received[..<newline])
        received.removeSubrange(...newline)
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      guard try receiveMore() else {
        throw TestClientError(description: "the connection closed in the middle of a line")
      }
    }
  }

  private func readBytes(_ count: Int) throws -> [UInt8] {
    while received.count < count {
      guard try receiveMore() else {
        throw TestClientError(description: "the connection closed in the middle of a body")
      }
    }
    let bytes = Array(received[..<count])
    received.removeSubrange(..<count)
    return bytes
  }

  /// Reads a status line and headers.
  func readHead() throws -> TestResponse {
    let statusLine = try readLine()
    let parts = statusLine.split(separator: " ", maxSplits: 2)
    guard parts.count >= 2, parts[0] == "HTTP/1.1", let status = Int(parts[1]) else {
      throw TestClientError(description: "malformed status line \"\(statusLine)\"")
    }
    var response = TestResponse(
      status: status, reason: parts.count > 2 ? String(parts[2]) : "", headers: [], body: [])
    while true {
      let line = try readLine()
      if line.isEmpty { break }
      guard let colon = line.firstIndex(of: ":") else {
        throw TestClientError(description: "malformed header line \"\(line)\"")
      }
      response.headers.append(
        (String(line[..<colon]), line[line.index(after: colon)...].trimmingSpaces))
    }
    return response
  }

  /// Reads a whole response: head, then the body framed by Content-Length, chunks or the end of
  /// the connection (none for 1xx, 204, 304 and answers to HEAD).
  func readResponse(toHead: Bool = false) throws -> TestResponse {
    var response = try readHead()
    if toHead || response.status < 200 || response.status == 204 || response.status == 304 {
      return response
    }
    if let length = response.header("Content-Length") {
      response.body = try readBytes(Int(length)!)
    } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
      while let chunk = try readChunk() { response.body += chunk }
    } else {
      while try receiveMore() {}
      response.body = received
      received = []
    }
    return response
  }

  /// Reads one chunk of a chunked body; nil after the last (empty) chunk and its trailers.
  private func readChunk() throws -> [UInt8]? {
    let sizeLine = try readLine()
    guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else {
      throw TestClientError(description: "malformed chunk size \"\(sizeLine)\"")
    }
    if size == 0 {
      while try !readLine().isEmpty {}
      return nil
    }
    let data = try readBytes(size)
    guard try readLine().isEmpty else {
      throw TestClientError(description: "a chunk is not followed by CRLF")
    }
    return data
  }

  /// Reads the head of an event-stream response and prepares to read its events.
  func readEventStreamHead() throws -> TestResponse {
    let head = try readHead()
    streamIsChunked = head.header("Transfer-Encoding")?.lowercased() == "chunked"
    return head
  }

  /// Reads the next block of the event stream; nil when the stream has ended (last chunk or
  /// end of the connection).
  func readEvent() throws -> TestEvent? {
    while true {
      if let block = takeBlock() { return block }
      if streamEnded { return nil }
      if streamIsChunked {
        if let chunk = try readChunk() { streamBody += chunk } else { streamEnded = true }
      } else {
        if !received.isEmpty {
          streamBody += received
          received = []
        } else if try !receiveMore() {
          streamEnded = true
        }
      }
    }
  }

  /// Whether the stream's body ended with a last chunk (a clean end) rather than a drop.
  var streamEndedCleanly: Bool { streamEnded && streamIsChunked }

  private func takeBlock() -> TestEvent? {
    var lines: [String] = []
    var position = 0
    while let newline = streamBody[position...].firstIndex(of: 0x0A) {
      let line = String(decoding: streamBody[position..<newline], as: UTF8.self)
      position = newline + 1
      if line.isEmpty {
        streamBody.removeSubrange(..<position)
        var event = TestEvent()
        for line in lines {
          if line.hasPrefix(":") {
            event.comments.append(String(line.dropFirst().trimmingPrefixSpace))
          } else if line.hasPrefix("event:") {
            event.event = String(line.dropFirst(6).trimmingPrefixSpace)
          } else if line.hasPrefix("id:") {
            event.id = String(line.dropFirst(3).trimmingPrefixSpace)
          } else if line.hasPrefix("data:") {
            event.dataLines.append(String(line.dropFirst(5).trimmingPrefixSpace))
          }
        }
        return event
      }
      lines.append(line)
    }
    return nil
  }

  /// Waits until the server closes the connection, dropping what it sends; false when it
  /// stays open for the whole timeout.
  func waitForClose() -> Bool {
    received = []
    while true {
      do {
        guard try receiveMore() else { return true }
        received = []
      } catch {
        return false
      }
    }
  }

  /// Everything the server sends until it closes the connection.
  func readUntilClose() throws -> [UInt8] {
    while try receiveMore() {}
    defer { received = [] }
    return received
  }
}

extension Substring {
  /// The text without one leading space (the SSE field convention).
  fileprivate var trimmingPrefixSpace: Substring {
    first == " " ? dropFirst() : self
  }

  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}

/// The C library, under one name on both platforms.
enum SystemCalls {
  #if canImport(Glibc)
    static let sendFlags = Int32(MSG_NOSIGNAL)
  #else
    static let sendFlags: Int32 = 0
  #endif

  static func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }

  static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32)
    -> Int
  {
    #if canImport(Glibc)
      Glibc.send(descriptor, bytes, count, flags)
    #else
      Darwin.send(descriptor, bytes, count, flags)
    #endif
  }
}
