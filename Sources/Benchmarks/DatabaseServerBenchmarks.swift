import Datasync
import DatasyncServer
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The cases of `datasync serve` in `datasync-bench`, over loopback in one process: PUTs of a
/// leaf with 1 and with 100 streaming listeners on the written path, write → event latency on
/// 100 listeners, resident bytes per idle stream, the open time of a 1M-leaf file and a leaf
/// PUT's time with 10k and with 1M stored leaves. Every write is committed to SQLite (WAL,
/// synchronous=NORMAL) before it is answered.
enum DatabaseServerBenchmarks {
  private static let putCase = "serve: PUT of a leaf, keep-alive"
  private static let latencyCase = "serve: write → event on 100 listeners"
  private static let memoryCase = "serve: resident bytes per idle streaming connection"
  private static let openCase = "serve: open a database file of"
  private static let storedCase = "serve: PUT of a leaf with"

  /// Runs the selected cases; returns what the memory case keeps alive until the end of the run.
  static func run(_ harness: BenchmarkHarness) -> [AnyObject] {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-bench-serve-\(UUID().uuidString)")
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let kept = try idleStreamMemory(harness, directory: directory)
      try listenerCases(harness, directory: directory)
      try storedLeavesCases(harness, directory: directory)
      return kept
    } catch {
      print("serve: the benchmark failed: \(error)")
      return []
    }
  }

  private static func startServer(dataPath: String) throws -> DatabaseServer {
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.rules = .open
    configuration.dataPath = dataPath
    return try DatabaseServer(configuration: configuration)
  }

  private static func openStream(_ target: String, port: Int) -> BenchmarkHTTPClient {
    let listener = BenchmarkHTTPClient(port: port)
    listener.send("GET \(target) HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
    return listener
  }

  private static func putRequest(_ target: String, _ body: String) -> [UInt8] {
    Array(
      "PUT \(target)?print=silent HTTP/1.1\r\nHost: bench\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        .utf8)
  }

  /// 1,000 idle streams, each on its own path, against the resident memory of the process.
  private static func idleStreamMemory(_ harness: BenchmarkHarness, directory: URL) throws
    -> [AnyObject]
  {
    guard harness.includes(memoryCase) else { return [] }
    let server = try startServer(dataPath: directory.appendingPathComponent("idle.sqlite").path)
    let count = 1_000
    let before = residentBytes()
    var listeners: [BenchmarkHTTPClient] = []
    for index in 0..<count {
      listeners.append(openStream("/idle/s\(index).json", port: server.port))
    }
    for listener in listeners { listener.receive(until: "\"data\":null}\n\n") }
    if let before, let after = residentBytes() {
      harness.report(
        memoryCase + " (1,000 open, each on its own path; server and client in one process)",
        value: Double(after - before) / Double(count), unit: "bytes")
    }
    return [server] + listeners
  }

  /// PUT throughput with 1 and 100 listeners draining their streams, then the latency from a
  /// PUT's sending to its event's arrival at each of 100 listeners.
  private static func listenerCases(_ harness: BenchmarkHarness, directory: URL) throws {
    let counts = [1, 100]
    let names = counts.map { "\(putCase), \($0) streaming listener\($0 == 1 ? "" : "s") on it" }
    guard names.contains(where: harness.includes) || harness.includes(latencyCase) else { return }
    let server = try startServer(dataPath: directory.appendingPathComponent("put.sqlite").path)
    let writer = BenchmarkHTTPClient(port: server.port)
    var sequence = 0
    for (count, name) in zip(counts, names) where harness.includes(name) {
      let listeners = (0..<count).map { _ in openStream("/bench/value.json", port: server.port) }
      for listener in listeners { listener.receive(until: "event: put") }
      let drain = StreamDrain(descriptors: listeners.map(\.descriptor))
      let operations = harness.scaled(2_000)
      let nanoseconds = harness.measureCrossThreadBatch(name, operations: operations) {
        for _ in 0..<operations {
          sequence += 1
          writer.roundTrip(putRequest("/bench/value.json", "\(sequence)"))
        }
      }
      drain.stop()
      if nanoseconds.isFinite {
        harness.report(name + " (PUTs/s)", value: 1e9 / nanoseconds, unit: "req/s")
      }
      if server.openStreamCount < count {
        print("serve: \(count - server.openStreamCount) listeners fell behind and were closed")
      }
      withExtendedLifetime(listeners) {}
    }
    if harness.includes(latencyCase) {
      let listeners = (0..<100).map { _ in openStream("/latency/value.json", port: server.port) }
      for listener in listeners { listener.receive(until: "event: put") }
      var samples: [Double] = []
      let watcher = EventWatcher(descriptors: listeners.map(\.descriptor))
      for _ in 0..<harness.scaled(300) {
        sequence += 1
        let marker = Array("\"data\":\(sequence)}".utf8)
        let sent = DispatchTime.now().uptimeNanoseconds
        writer.send(putRequest("/latency/value.json", "\(sequence)"))
        samples += watcher.arrivals(of: marker).map { Double($0 - sent) / 1_000 }
        writer.readResponse()
      }
      harness.reportLatencies(latencyCase, samples, of: "arrivals")
      withExtendedLifetime(listeners) {}
    }
    server.stop()
  }

  /// The open time of a large file, and a leaf PUT's time with 10k and with 1M stored leaves
  /// (100k in a quick run), measured in alternating rounds (best round of each kept).
  private static func storedLeavesCases(_ harness: BenchmarkHarness, directory: URL) throws {
    let large = harness.isQuick ? 100_000 : 1_000_000
    let label = large >= 1_000_000 ? "\(large / 1_000_000)M" : "\(large / 1_000)k"
    let openName = "\(openCase) \(label) leaves (DatasyncDatabase(path:))"
    let sizes = [10_000, large]
    let names = ["\(storedCase) 10k stored leaves", "\(storedCase) \(label) stored leaves"]
    guard harness.includes(openName) || names.contains(where: harness.includes) else { return }
    let paths = try sizes.map { leaves in
      let path = directory.appendingPathComponent("leaves-\(leaves).sqlite").path
      let probe = try StorageProbe(path: path)
      try probe.fill(groups: leaves / 1_000, leavesPerGroup: 1_000)
      probe.close()
      return path
    }
    if harness.includes(openName) {
      var best = Double.infinity
      for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        let database = try DatasyncDatabase(path: paths[1])
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        database.close()
      }
      harness.report(openName, value: best, unit: "ms")
    }
    guard names.contains(where: harness.includes) else { return }
    let servers = try paths.map { try startServer(dataPath: $0) }
    let writers = servers.map { BenchmarkHTTPClient(port: $0.port) }
    var best = [Double](repeating: .infinity, count: sizes.count)
    var position: UInt64 = 0
    let puts = harness.scaled(1_000)
    for round in 0...5 {
      for (index, leaves) in sizes.enumerated() {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<puts {
          position = (position &+ 1) &* 0x9E37_79B9_7F4A_7C15
          let leaf = Int(position >> 33) % leaves
          writers[index].roundTrip(
            putRequest("/g\(leaf / 1_000)/k\(leaf % 1_000).json", "\"written \(position)\""))
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(puts)
        if round > 0 { best[index] = min(best[index], elapsed) }
      }
    }
    for (name, nanoseconds) in zip(names, best) {
      harness.report(name, value: nanoseconds, unit: "ns/op")
    }
    harness.reportRatio("\(storedCase) \(label) / 10k stored leaves", best[1], best[0], goal: 2)
    for server in servers { server.stop() }
  }
}

/// Reads and discards what arrives on streams, on its own thread, until stopped.
private final class StreamDrain: Sendable {
  private let running = Atomic(true)
  private let finished = DispatchSemaphore(value: 0)

  init(descriptors: [Int32]) {
    Thread.detachNewThread { [self] in
      var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while running.load(ordering: .relaxed) {
        guard poll(&polled, nfds_t(polled.count), 10) > 0 else { continue }
        for entry in polled where entry.revents != 0 {
          _ = buffer.withUnsafeMutableBytes { recv(entry.fd, $0.baseAddress, $0.count, 0) }
        }
      }
      finished.signal()
    }
  }

  /// Stops draining; returns once the thread has stopped.
  func stop() {
    running.store(false, ordering: .relaxed)
    finished.wait()
  }
}

/// Watches streams for an event and notes when it reaches each one.
private final class EventWatcher {
  private var polled: [pollfd]
  /// The last bytes read on each stream (a marker may straddle two reads).
  private var tails: [[UInt8]]

  init(descriptors: [Int32]) {
    polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    tails = Array(repeating: [], count: descriptors.count)
  }

  /// The uptime in nanoseconds at which `marker` arrived on each stream.
  func arrivals(of marker: [UInt8]) -> [UInt64] {
    var arrivals = [UInt64?](repeating: nil, count: polled.count)
    var waiting = polled.count
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while waiting > 0 {
      guard poll(&polled, nfds_t(polled.count), 60_000) > 0 else {
        fatalError("benchmark listeners: no event within 60 s")
      }
      let now = DispatchTime.now().uptimeNanoseconds
      for index in polled.indices where polled[index].revents != 0 && arrivals[index] == nil {
        let count = buffer.withUnsafeMutableBytes {
          recv(polled[index].fd, $0.baseAddress, $0.count, 0)
        }
        guard count > 0 else { fatalError("benchmark listeners: a stream was closed") }
        let received = tails[index] + buffer[..<count]
        if Self.contains(received, marker) {
          arrivals[index] = now
          waiting -= 1
          tails[index] = []
        } else {
          tails[index] = Array(received.suffix(marker.count))
        }
      }
    }
    return arrivals.map { $0 ?? 0 }
  }

  private static func contains(_ bytes: [UInt8], _ marker: [UInt8]) -> Bool {
    guard bytes.count >= marker.count else { return false }
    return (0...(bytes.count - marker.count)).contains {
      bytes[$0..<($0 + marker.count)].elementsEqual(marker)
    }
  }
}
