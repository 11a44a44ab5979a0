import Foundation
import Testing

/// Runs the built `datasync serve` as a user would: its command line, its signals, and its data
/// across a `kill -9`.
@Suite(.timeLimit(.minutes(3))) struct ServeCommandTests {
  /// A temporary directory for one test's database files.
  final class DataDirectory {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-serve-command-\(UUID().uuidString)")

    init() throws {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    var dataPath: String { url.appendingPathComponent("data.sqlite").path }
  }

  /// The writes of the concurrent writers: the keys sent and not answered, and those
  /// acknowledged with their values.
  struct WriterLog {
    var acknowledged: [String: Int] = [:]
    var unanswered: Set<String> = []
  }

  /// The writers' shared log. A pthread mutex (`NSLock`), which the thread sanitizer follows
  /// under contention, protects `log`.
  final class SharedWriterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var log = WriterLog()

    func withLock<Result>(_ body: (inout WriterLog) -> Result) -> Result {
      lock.withLock { body(&log) }
    }
  }

  @Test func everyAcknowledgedWriteSurvivesKillNine() throws {
    let directory = try DataDirectory()
    let server = try ServeProcess(["--open", "--port", "0", "--data", directory.dataPath])
    let log = SharedWriterLog()
    let writersDone = DispatchGroup()
    let thousandAcknowledged = DispatchSemaphore(value: 0)
    let writers = 4
    for writer in 0..<writers {
      writersDone.enter()
      Thread.detachNewThread {
        defer { writersDone.leave() }
        guard let client = try? KeepAliveClient(port: server.port) else { return }
        // Each write is atomic over two locations: after the restart both are there or neither.
        for index in 0..<2_000 {
          let key = "w\(writer)-\(index)"
          log.withLock { _ = $0.unanswered.insert(key) }
          let body = #"{"a/\#(key)": \#(index), "b/\#(key)": \#(index)}"#
          guard let response = try? client.request("PATCH", "/log.json?print=silent", body: body),
            response.status == 204
          else { return }
          let reachedTarget = log.withLock {
            $0.unanswered.remove(key)
            $0.acknowledged[key] = index
            return $0.acknowledged.count == 1_000
          }
          if reachedTarget { thousandAcknowledged.signal() }
        }
      }
    }
    _ = thousandAcknowledged.wait(timeout: .now() + 120)
    server.stop(with: SIGKILL)
    writersDone.wait()
    #expect(server.process.terminationReason == .uncaughtSignal)
    #expect(server.process.terminationStatus == SIGKILL)
    let written = log.withLock { $0 }
    try #require(written.acknowledged.count >= 1_000)
    // Every writer was cut off: its last write failed, unanswered.
    #expect(written.unanswered.count == writers)

    let restarted = try ServeProcess(["--open", "--port", "0", "--data", directory.dataPath])
    let response = try KeepAliveClient(port: restarted.port).request("GET", "/log.json")
    #expect(response.status == 200)
    let stored = try #require(
      try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: [String: Int]])
    let first = stored["a"] ?? [:]
    let second = stored["b"] ?? [:]
    for (key, index) in written.acknowledged {
      #expect(first[key] == index && second[key] == index, "acknowledged write \(key) lost")
    }
    #expect(first == second)
    let unexpected = Set(first.keys).subtracting(written.acknowledged.keys)
    #expect(unexpected.isSubset(of: written.unanswered))
    restarted.stop(with: SIGTERM)
    #expect(restarted.process.terminationStatus == 0)
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func aSignalStopsTheServerCleanlyAndKeepsItsData(signal: Int32) throws {
    let directory = try DataDirectory()
    let server = try ServeProcess(["--open", "--port", "0", "--data", directory.dataPath])
    let client = try KeepAliveClient(port: server.port)
    #expect(try client.request("PUT", "/kept.json", body: #"{"n": 1}"#).status == 200)
    server.stop(with: signal)
    #expect(server.process.terminationReason == .exit)
    #expect(server.process.terminationStatus == 0)
    let printed = server.printed
    #expect(printed.contains(signal == SIGINT ? "received SIGINT: stopping" : "received SIGTERM"))
    #expect(printed.hasSuffix("stopped\n"))

    let restarted = try ServeProcess(["--open", "--port", "0", "--data", directory.dataPath])
    defer { restarted.stop(with: SIGTERM) }
    let answer = try KeepAliveClient(port: restarted.port).request("GET", "/kept.json")
    #expect(answer.body == #"{"n":1}"#)
  }

  @Test func theStartPrintsTheRulesTheAdminTokenAndTheListenerThenStaysQuiet() throws {
    let directory = try DataDirectory()
    let server = try ServeProcess(["--port", "0", "--data", directory.dataPath])
    let client = try KeepAliveClient(port: server.port)
    #expect(try client.request("GET", "/.json").status == 403)
    #expect(try client.request("GET", "/.json?auth=unknown").status == 401)
    #expect(try client.request("GET", "/.json?auth=owner").status == 200)
    server.stop(with: SIGTERM)
    let lines = server.printed.split(separator: "\n")
    #expect(
      lines == [
        "datasync serve: data \(directory.dataPath), rules auth != null for read and write "
          + "(--open for open rules)",
        "admin token: owner (Authorization: Bearer owner)",
        "listening on http://127.0.0.1:\(server.port)",
        "received SIGTERM: stopping",
        "stopped",
      ])
  }

  @Test func verboseLogsOneLinePerRequestAndTheAdminTokenCanBeReplaced() throws {
    let directory = try DataDirectory()
    let server = try ServeProcess([
      "--port", "0", "--data", directory.dataPath, "--admin-token", "s3cret", "--verbose",
    ])
    let client = try KeepAliveClient(port: server.port)
    #expect(try client.request("GET", "/.json?auth=owner").status == 401)
    #expect(try client.request("PUT", "/x.json?auth=s3cret", body: "1").status == 200)
    server.stop(with: SIGTERM)
    let printed = server.printed
    #expect(printed.contains("admin token: s3cret (Authorization: Bearer s3cret)"))
    let requestLines = printed.split(separator: "\n").filter {
      $0.contains("GET /.json") || $0.contains("PUT /x.json")
    }
    #expect(requestLines.count == 2)
    #expect(requestLines.allSatisfy { $0.contains("auth=***") && !$0.contains("s3cret") })
  }

  @Test(arguments: [
    ["serve", "--port", "70000"],
    ["serve", "--port"],
    ["serve", "--port", "nine"],
    ["serve", "--host"],
    ["serve", "--data", "--open"],
    ["serve", "--frobnicate"],
    ["serve", "--open", "--rules", "rules.json"],
    ["serve", "--rules", "/nonexistent/rules.json"],
    ["serve", "--tokens", "/nonexistent/tokens.json"],
  ])
  func badArgumentsGiveAOneLineErrorAndStatusTwo(arguments: [String]) throws {
    expectOneLineUsageError(try runDatasync(arguments))
  }
}
