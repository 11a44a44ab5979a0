import DatasyncServer
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The HTTP cases of `datasync-bench`: request round trips over one keep-alive connection from
/// one client thread (a trivial handler, loopback), and the memory of idle event streams.
enum HTTPServerBenchmarks {
  /// Runs the cases; returns the server and the connections of the memory case, to keep alive
  /// until the end of the run (so later memory cases do not reuse their pages).
  static func run(_ harness: BenchmarkHarness) -> [AnyObject] {
    let roundTrip = "http: keep-alive round trip, trivial handler"
    let memory = "http: resident bytes per idle streaming connection"
    guard harness.includes(roundTrip) || harness.includes(memory) else { return [] }
    let streams = StreamList()
    let server: HTTPServer
    do {
      server = try HTTPServer(configuration: .init(host: "127.0.0.1", port: 0)) {
        request, responder in
        if request.rawPath == "/stream" {
          guard let stream = try? responder.openEventStream() else { return }
          try? stream.send(event: "put", data: #"{"path":"/","data":null}"#)
          streams.append(stream)
        } else {
          responder.respond(HTTPResponse(body: "ok"))
        }
      }
    } catch {
      fatalError("benchmark server: \(error)")
    }
    let client = BenchmarkHTTPClient(port: server.port)
    let requests = harness.scaled(20_000)
    func measureRoundTrips(_ name: String) {
      let nanoseconds = harness.measureCrossThreadBatch(name, operations: requests) {
        for _ in 0..<requests { client.roundTrip() }
      }
      if nanoseconds.isFinite {
        harness.report(name + " (requests/s)", value: 1e9 / nanoseconds, unit: "req/s")
      }
    }
    measureRoundTrips(roundTrip)
    var kept: [AnyObject] = [server, client, streams]
    if harness.includes(memory) {
      let count = 1_000
      let before = residentBytes()
      var listeners: [BenchmarkHTTPClient] = []
      for _ in 0..<count {
        let listener = BenchmarkHTTPClient(port: server.port)
        listener.send("GET /stream HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        listeners.append(listener)
      }
      // Each listener has received its head and first event: the streams are established.
      for listener in listeners { listener.receive(until: "\"data\":null}\n\n") }
      if let before, let after = residentBytes() {
        harness.report(
          memory + " (1,000 open; server and client in one process)",
          value: Double(after - before) / Double(count), unit: "bytes")
      }
      kept += listeners
      measureRoundTrips(roundTrip + ", 1,000 idle streams open")
    }
    return kept
  }

}

/// The event streams a benchmark server opened, kept alive with the run.
private final class StreamList: @unchecked Sendable {
  /// Protects `streams`.
  private let lock = NSLock()
  private var streams: [HTTPEventStream] = []

  func append(_ stream: HTTPEventStream) {
    lock.withLock { streams.append(stream) }
  }
}

/// A minimal blocking HTTP client on 127.0.0.1: one request at a time, responses framed by
/// `Content-Length` (or empty: 204). Fails loudly rather than hanging (a 60 s receive timeout).
final class BenchmarkHTTPClient {
  let descriptor: Int32
  /// Bytes read and not yet consumed (no per-client read buffer: the memory case counts
  /// what each idle connection costs).
  private var received: [UInt8] = []
  private static let request = Array("GET /ping HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)

  init(port: Int) {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var timeout = timeval(tv_sec: 60, tv_usec: 0)
    setsockopt(
      descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var one: Int32 = 1
    setsockopt(
      descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = UInt16(port).bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let status = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard descriptor >= 0, status == 0 else { fatalError("benchmark client: connect failed") }
  }

  deinit {
    close(descriptor)
  }

  func send(_ text: String) {
    send(Array(text.utf8))
  }

  func send(_ bytes: [UInt8]) {
    let sent = bytes.withUnsafeBytes { systemSend(descriptor, $0) }
    guard sent == bytes.count else { fatalError("benchmark client: send failed") }
  }

  /// Sends a GET and reads its whole response.
  func roundTrip() {
    roundTrip(Self.request)
  }

  /// Sends `request` and reads its whole response.
  func roundTrip(_ request: [UInt8]) {
    send(request)
    readResponse()
  }

  /// Reads one whole response.
  func readResponse() {
    while true {
      if let headEnd = find([0x0D, 0x0A, 0x0D, 0x0A]) {
        let head = String(decoding: received[..<headEnd], as: UTF8.self)
        let length: Int
        if head.hasPrefix("HTTP/1.1 204 ") {
          length = 0
        } else if let range = head.range(of: "Content-Length: "),
          let declared = Int(head[range.upperBound...].prefix { $0.isNumber })
        {
          length = declared
        } else {
          fatalError("benchmark client: no Content-Length in \(head)")
        }
        let total = headEnd + 4 + length
        while received.count < total { receiveMore() }
        received.removeSubrange(..<total)
        return
      }
      receiveMore()
    }
  }

  /// Reads until `marker` has arrived, and drops what was read.
  func receive(until marker: String) {
    let bytes = Array(marker.utf8)
    while find(bytes) == nil { receiveMore() }
    received = []
  }

  private func find(_ pattern: [UInt8]) -> Int? {
    guard received.count >= pattern.count else { return nil }
    return (0...(received.count - pattern.count)).first {
      received[$0..<($0 + pattern.count)].elementsEqual(pattern)
    }
  }

  private func receiveMore() {
    withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: 1) { buffer in
      let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
      guard count > 0 else { fatalError("benchmark client: the server closed or timed out") }
      received += UnsafeRawBufferPointer(rebasing: buffer[..<count])
    }
  }
}

/// `send` without `SIGPIPE`.
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
  #if canImport(Glibc)
    Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
  #else
    Darwin.send(descriptor, bytes.baseAddress, bytes.count, 0)
  #endif
}
