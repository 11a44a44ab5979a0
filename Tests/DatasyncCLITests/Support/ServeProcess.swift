import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A failure of a `datasync serve` process or of a request to it.
struct ServeTestError: Error, CustomStringConvertible {
  let description: String
}

/// The built `datasync` executable, beside the test bundle.
func datasyncExecutable() -> URL {
  URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("datasync")
}

/// What a process printed, collected by a reader thread until the end of its output.
///
/// `lock` (a pthread mutex, which the thread sanitizer follows) protects `collected`.
private final class PrintedOutput: @unchecked Sendable {
  private let lock = NSLock()
  private var collected = ""
  private let listening = DispatchSemaphore(value: 0)
  private let ended = DispatchSemaphore(value: 0)

  /// Reads `handle` on its own thread until its end.
  func collect(from handle: FileHandle) {
    Thread.detachNewThread { [self] in
      var announced = false
      while true {
        let data = handle.availableData
        if data.isEmpty { break }
        let all = lock.withLock {
          collected += String(decoding: data, as: UTF8.self)
          return collected
        }
        if !announced && all.contains("listening on ") {
          announced = true
          listening.signal()
        }
      }
      if !announced { listening.signal() }
      ended.signal()
    }
  }

  /// The text once the listening line was printed (or the output ended).
  func waitForListening() -> String {
    _ = listening.wait(timeout: .now() + 60)
    return lock.withLock { collected }
  }

  /// The whole text, once the output ended.
  func waitForEnd() -> String {
    _ = ended.wait(timeout: .now() + 60)
    ended.signal()
    return lock.withLock { collected }
  }
}

/// A `datasync serve` process started for a test; its port is read from its "listening on"
/// line.
final class ServeProcess: Sendable {
  let process: Process
  let port: Int
  private let output = PrintedOutput()

  /// Starts `datasync serve` with `arguments` (which should include `--port 0`) and waits for
  /// its listening line.
  init(_ arguments: [String]) throws {
    process = Process()
    process.executableURL = datasyncExecutable()
    process.arguments = ["serve"] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    output.collect(from: pipe.fileHandleForReading)
    let text = output.waitForListening()
    guard
      let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on ") }),
      let port = line.split(separator: ":").last.flatMap({ Int($0) })
    else {
      process.terminate()
      throw ServeTestError(description: "datasync serve did not start: \(text)")
    }
    self.port = port
  }

  /// Everything the process printed; waits for the end of its output (its exit).
  var printed: String { output.waitForEnd() }

  /// Sends `signal` and waits until the process exits.
  func stop(with signal: Int32) {
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
  }
}

/// A small blocking HTTP/1.1 client on one keep-alive connection to 127.0.0.1, for the command
/// tests; every read waits at most 10 seconds.
///
/// Used by one thread at a time, hence `@unchecked Sendable`.
final class KeepAliveClient: @unchecked Sendable {
  private let descriptor: Int32
  private var received: [UInt8] = []

  init(port: Int) throws {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw ServeTestError(description: "socket: \(errno)") }
    var time = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
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
      close(descriptor)
      throw ServeTestError(description: "connect: \(errno)")
    }
  }

  deinit { close(descriptor) }

  /// Sends a request and reads its response: the status and the body (by `Content-Length`).
  func request(_ method: String, _ target: String, body: String? = nil) throws -> (
    status: Int, body: String
  ) {
    var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    text += "\r\n" + (body ?? "")
    let bytes = Array(text.utf8)
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes {
        send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw ServeTestError(description: "send: \(errno)") }
      sent += count
    }
    let headEnd = try readUntilHeadEnd()
    let head = String(decoding: received[..<headEnd], as: UTF8.self)
    received.removeFirst(headEnd + 4)
    let lines = head.split(separator: "\r\n")
    guard let statusText = lines.first?.split(separator: " ").dropFirst().first,
      let status = Int(statusText)
    else { throw ServeTestError(description: "malformed response head: \(head)") }
    let length =
      lines.dropFirst().compactMap { line -> Int? in
        let parts = line.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
        return Int(parts[1].trimmingCharacters(in: .whitespaces))
      }.first ?? 0
    while received.count < length { try receiveMore() }
    let body = String(decoding: received[..<length], as: UTF8.self)
    received.removeFirst(length)
    return (status, body)
  }

  private func readUntilHeadEnd() throws -> Int {
    let marker: [UInt8] = Array("\r\n\r\n".utf8)
    while true {
      if received.count >= 4 {
        for index in 0...(received.count - 4) where Array(received[index..<index + 4]) == marker {
          return index
        }
      }
      try receiveMore()
    }
  }

  private func receiveMore() throws {
    var buffer = [UInt8](repeating: 0, count: 16_384)
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else {
      throw ServeTestError(description: count == 0 ? "the server closed" : "recv: \(errno)")
    }
    received += buffer[..<count]
  }
}
