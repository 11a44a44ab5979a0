import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `datasync get|set|merge|push|delete|watch` used as a user would, against `datasync serve`.
@Suite(.timeLimit(.minutes(2))) struct RemoteCommandTests {
  /// A temporary database file.
  final class DataFile {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-remote-command-\(UUID().uuidString)")

    init() throws {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var path: String { directory.appendingPathComponent("data.sqlite").path }
  }

  /// Starts `datasync watch <url>`; returns the process and the collectors of its standard
  /// output and error lines.
  private static func startWatch(_ url: String) throws -> (
    process: Process, lines: LineCollector, complaints: LineCollector
  ) {
    let watch = Process()
    watch.executableURL = datasyncExecutable()
    watch.arguments = ["watch", url]
    let output = Pipe()
    let error = Pipe()
    watch.standardOutput = output
    watch.standardError = error
    try watch.run()
    return (
      watch, LineCollector(output.fileHandleForReading), LineCollector(error.fileHandleForReading)
    )
  }

  @Test func writesAndReadsPrintJSONAndExitZero() throws {
    let file = try DataFile()
    let server = try ServeProcess(["--open", "--port", "0", "--data", file.path])
    defer { server.stop(with: SIGTERM) }
    let url = "http://127.0.0.1:\(server.port)"

    let set = try runDatasync(["set", "\(url)/rooms/a", #"{"x": 1}"#])
    #expect(set.status == 0)
    #expect(set.output == "{\"x\":1}\n")
    let piped = try runDatasync(["set", "\(url)/rooms/b", "-"], input: #""from stdin""#)
    #expect(piped.output == "\"from stdin\"\n")
    let merged = try runDatasync(["merge", "\(url)/rooms/a", #"{"y": 2}"#])
    #expect(merged.output == "{\"y\":2}\n")
    let pushed = try runDatasync(["push", "\(url)/rooms", "3"])
    let name = try #require(
      (try JSONSerialization.jsonObject(with: Data(pushed.output.utf8)) as? [String: String])?[
        "name"])
    #expect(try runDatasync(["delete", "\(url)/rooms/b"]).output == "null\n")
    let read = try runDatasync(["get", "\(url)/rooms.json"])
    #expect(read.status == 0)
    #expect(read.output == "{\"\(name)\":3,\"a\":{\"x\":1,\"y\":2}}\n")
  }

  @Test func refusalsExitOneWithTheServersErrorAndBadUsageExitsTwo() throws {
    let file = try DataFile()
    let server = try ServeProcess(["--port", "0", "--data", file.path])
    defer { server.stop(with: SIGTERM) }
    let url = "http://127.0.0.1:\(server.port)"

    let refused = try runDatasync(["set", "\(url)/a", "1"])
    #expect(refused.status == 1)
    #expect(refused.output.isEmpty)
    #expect(refused.error.hasPrefix("datasync: error: "))
    #expect(refused.error.contains("HTTP 401") || refused.error.contains("HTTP 403"))
    #expect(try runDatasync(["set", "\(url)/a", "1", "--token", "owner"]).status == 0)
    #expect(try runDatasync(["get", "\(url)/a", "--token", "owner"]).output == "1\n")

    for arguments in [
      ["set", "\(url)/a"], ["set", "\(url)/a", "{not json"], ["get", "ftp://host/a"],
      ["get", "\(url)/a", "--token"], ["delete", "\(url)/a", "--force"],
    ] {
      let usage = try runDatasync(arguments)
      #expect(usage.status == 2, "\(arguments)")
      #expect(usage.error.hasPrefix("datasync: error: "), "\(arguments)")
    }
  }

  @Test func getSendsTheReadParametersOfItsURLAndRefusesOthers() throws {
    let file = try DataFile()
    let server = try ServeProcess(["--open", "--port", "0", "--data", file.path])
    defer { server.stop(with: SIGTERM) }
    let url = "http://127.0.0.1:\(server.port)"
    #expect(
      try runDatasync(["set", "\(url)/rooms", #"{"a": {"n": 1}, "b": 2, "c": 3}"#]).status == 0)

    #expect(
      try runDatasync(["get", "\(url)/rooms?shallow=true"]).output
        == "{\"a\":true,\"b\":2,\"c\":3}\n")
    #expect(
      try runDatasync(["get", #"\#(url)/rooms.json?orderBy="$key"&limitToLast=2"#]).output
        == "{\"b\":2,\"c\":3}\n")
    #expect(
      try runDatasync(["get", "\(url)/rooms/a?print=pretty"]).output.contains("\n  \"n\" : 1"))
    let refusedByServer = try runDatasync(["get", "\(url)/rooms?print=loud"])
    #expect(refusedByServer.status == 1)
    #expect(refusedByServer.error.contains("print must be"))

    for (arguments, culprit) in [
      (["get", "\(url)/rooms?shalow=true"], "not shalow"),
      (["set", "\(url)/rooms/d?shallow=true", "1"], "'set' accepts only"),
      (["get", "\(url)/rooms?auth=owner"], "--token"),
      (["get", "\(url)/rooms?ns="], "ns needs a namespace"),
    ] {
      let usage = try runDatasync(arguments)
      #expect(usage.status == 2, "\(arguments)")
      #expect(usage.error.contains(culprit), "\(arguments): \(usage.error)")
    }
    #expect(try runDatasync(["get", "\(url)/rooms/d"]).output == "null\n")
  }

  @Test func watchPrintsOneLinePerEventUntilInterrupted() throws {
    let file = try DataFile()
    let server = try ServeProcess(["--open", "--port", "0", "--data", file.path])
    defer { server.stop(with: SIGTERM) }
    let url = "http://127.0.0.1:\(server.port)"
    #expect(try runDatasync(["set", "\(url)/rooms/a", "1"]).status == 0)

    let (watch, lines, complaints) = try Self.startWatch("\(url)/rooms")
    #expect(lines.wait { $0.hasPrefix("value rooms") } == ["added a 1", #"value rooms {"a":1}"#])

    #expect(try runDatasync(["set", "\(url)/rooms/b", #""hi""#]).status == 0)
    #expect(try runDatasync(["delete", "\(url)/rooms/a"]).status == 0)
    let seen = lines.wait { $0 == #"value rooms {"b":"hi"}"# }
    #expect(
      seen == [
        "added a 1", #"value rooms {"a":1}"#, #"added b "hi""#, #"value rooms {"a":1,"b":"hi"}"#,
        "removed a 1", #"value rooms {"b":"hi"}"#,
      ])

    kill(watch.processIdentifier, SIGINT)
    watch.waitUntilExit()
    #expect(watch.terminationStatus == 0)
    #expect(complaints.waitForEnd().isEmpty)
  }

  @Test func watchReconnectsOnItsOwnAndSaysSo() throws {
    let file = try DataFile()
    let server = try ServeProcess(["--open", "--port", "0", "--data", file.path])
    let port = server.port
    let url = "http://127.0.0.1:\(port)"
    let (watch, lines, complaints) = try Self.startWatch("\(url)/rooms")
    defer {
      kill(watch.processIdentifier, SIGINT)
      watch.waitUntilExit()
    }
    #expect(lines.wait { $0.hasPrefix("value rooms") } == ["value rooms null"])

    server.stop(with: SIGTERM)
    #expect(complaints.wait { $0.contains("connection lost") }.count == 1)
    let restarted = try ServeProcess(["--open", "--port", "\(port)", "--data", file.path])
    defer { restarted.stop(with: SIGTERM) }
    #expect(complaints.wait { $0.contains("reconnected") }.last == "datasync: reconnected")
    #expect(try runDatasync(["set", "\(url)/rooms/a", "1"]).status == 0)
    // Waits for the last of the two lines: the first may be read alone.
    #expect(
      lines.wait { $0 == #"value rooms {"a":1}"# }.suffix(2)
        == ["added a 1", #"value rooms {"a":1}"#])
  }
}
