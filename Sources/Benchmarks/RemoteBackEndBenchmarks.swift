import Datasync
import DatasyncServer
import Dispatch
import Foundation

/// The remote back end's cases of `datasync-bench`, over loopback with the server in the same
/// process: a write by one remote client to the event at another (median, p99), the initial
/// load of 10,000 children over a stream against the embedded back end, and the resident bytes
/// per listened location (client and server sides together).
enum RemoteBackEndBenchmarks {
  private static let latencyCase = "remote: write → value event at another remote client"
  private static let loadCase = "remote: initial load of 10,000 children, remote vs embedded"
  private static let memoryCase = "remote: resident bytes per listened location"

  /// Runs the memory case, with the other memory cases of the run (before cases that free memory
  /// while it measures); returns what it keeps alive until the end of the run.
  static func runMemory(_ harness: BenchmarkHarness) -> [AnyObject] {
    guard harness.includes(memoryCase) else { return [] }
    do {
      let server = try startServer()
      return [server] + memory(harness, url: url(of: server))
    } catch {
      print("remote: the benchmark failed: \(error)")
      return []
    }
  }

  /// Runs the latency and load cases.
  static func run(_ harness: BenchmarkHarness) {
    guard [latencyCase, loadCase].contains(where: harness.includes) else { return }
    do {
      let server = try startServer()
      defer { server.stop() }
      let url = url(of: server)
      if harness.includes(latencyCase) { latency(harness, url: url) }
      if harness.includes(loadCase) { try load(harness, url: url, database: server.database()) }
    } catch {
      print("remote: the benchmark failed: \(error)")
    }
  }

  private static func startServer() throws -> DatabaseServer {
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.rules = .open
    return try DatabaseServer(configuration: configuration)
  }

  private static func url(of server: DatabaseServer) -> URL {
    URL(string: "http://127.0.0.1:\(server.port)")!
  }

  private static func manager(_ backEnd: DatasyncBackEnd) -> DatasyncManager {
    WebcomApplication(configuration: WebcomConfiguration(identifier: "bench", backEnd: backEnd))
      .datasyncService.createManager()
  }

  private static func waitOrFail(_ semaphore: DispatchSemaphore, _ what: String) {
    guard semaphore.wait(timeout: .now() + 120) == .success else {
      fatalError("benchmark timed out waiting for \(what)")
    }
  }

  private static func latency(_ harness: BenchmarkHarness, url: URL) {
    let writer = manager(.remote(url: url)).node(for: "latency/value")!
    let reader = manager(.remote(url: url)).node(for: "latency/value")!
    let queue = DispatchQueue(label: "bench.remote.latency")
    let arrived = DispatchSemaphore(value: 0)
    let expected = LockedValue<Int?>(nil)
    let subscription = reader.subscribe(
      to: .valueChange, stores: false, queue: queue,
      onEvent: { event in
        if let wanted = expected.withLock({ $0 }), event.value.asInt == wanted { arrived.signal() }
      })
    expected.withLock { $0 = 0 }
    writer.set(0, queue: queue)
    waitOrFail(arrived, "the first value")
    var samples: [Double] = []
    for sequence in 1...harness.scaled(300) {
      expected.withLock { $0 = sequence }
      let sent = DispatchTime.now().uptimeNanoseconds
      writer.set(sequence, queue: queue)
      waitOrFail(arrived, "value \(sequence)")
      samples.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1_000)
    }
    harness.reportLatencies(latencyCase, samples)
    withExtendedLifetime(subscription) {}
  }

  private static func load(_ harness: BenchmarkHarness, url: URL, database: DatasyncDatabase)
    throws
  {
    let children = Dictionary(
      uniqueKeysWithValues: (0..<10_000).map { ("c\($0)", LoadedChild(n: $0, text: "child \($0)")) }
    )
    let seeded = DispatchSemaphore(value: 0)
    let seeding = manager(.embedded(database))
    seeding.node(for: "load")!.set(children, queue: .global()) { _ in seeded.signal() }
    waitOrFail(seeded, "the seeded children")
    var best: [Double] = [.infinity, .infinity]
    for _ in 0..<3 {
      for (index, backEnd) in [DatasyncBackEnd.remote(url: url), .embedded(database)].enumerated() {
        let node = manager(backEnd).node(for: "load")!
        let loaded = DispatchSemaphore(value: 0)
        let start = DispatchTime.now().uptimeNanoseconds
        let subscription = node.subscribe(
          to: .valueChange, stores: false, queue: DispatchQueue(label: "bench.remote.load"),
          onEvent: { _ in loaded.signal() })
        waitOrFail(loaded, "the initial load")
        best[index] = min(best[index], Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        subscription?.cancel()
      }
    }
    harness.report(loadCase + ": remote", value: best[0], unit: "ms")
    harness.report(loadCase + ": embedded", value: best[1], unit: "ms")
    harness.report(loadCase + ": ratio", String(format: "%12.1f x", best[0] / best[1]))
  }

  /// Measures the memory of `harness.scaled(500)` listened locations; returns the subscriptions,
  /// which stay open until the end of the run.
  private static func memory(_ harness: BenchmarkHarness, url: URL) -> [AnyObject] {
    let count = harness.scaled(500)
    let client = manager(.remote(url: url))
    let queue = DispatchQueue(label: "bench.remote.memory")
    let started = DispatchSemaphore(value: 0)
    let before = residentBytes()
    var subscriptions: [DatasyncSubscription] = []
    for index in 0..<count {
      if let subscription = client.node(for: "memory/l\(index)")!.subscribe(
        to: .valueChange, stores: false, queue: queue, onEvent: { _ in started.signal() })
      {
        subscriptions.append(subscription)
      }
    }
    for index in 0..<count { waitOrFail(started, "listen \(index)") }
    if let before, let after = residentBytes() {
      harness.report(
        memoryCase + " (\(count) open; client and server in one process)",
        value: Double(after - before) / Double(count), unit: "bytes")
    }
    return subscriptions
  }
}

/// A child of the initial load case.
private struct LoadedChild: Encodable, Sendable {
  let n: Int
  let text: String
}
