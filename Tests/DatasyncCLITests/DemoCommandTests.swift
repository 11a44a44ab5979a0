import Foundation
import Testing

/// Runs the built `datasync` executable, as a user would.
@Suite(.timeLimit(.minutes(2))) struct DemoCommandTests {
  struct Run {
    let status: Int32
    let output: String
    let error: String
  }

  private func datasync(_ arguments: [String]) throws -> Run {
    let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let executable = directory.appendingPathComponent("datasync")
    try #require(FileManager.default.isExecutableFile(atPath: executable.path))
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
      error: String(decoding: errorData, as: UTF8.self))
  }

  @Test func demoShowsALiveFeedAndACorrectSummary() throws {
    let run = try datasync(["demo", "--writers", "3", "--messages", "50", "--seconds", "1"])
    #expect(run.status == 0)
    #expect(run.output.contains("feed:"))
    #expect(run.output.contains("duplicates seen:              0"))
    #expect(run.output.contains("initial load completed:       after"))
    // Writers start as the reader subscribes, so the initial load holds the 50 seeded messages and
    // possibly a few early ones: all of them, in one emission.
    let initial = run.output.split(separator: "\n").first { $0.contains("one emission of") }
    let initialCount = initial.flatMap { Int($0.split(separator: " ").dropLast().last ?? "") }
    #expect((initialCount ?? 0) >= 50)
    #expect(run.output.contains("OK: the feed matches the database."))
    let lines = run.output.split(separator: "\n")
    let stored = lines.first { $0.contains("messages in the database:") }
    let feed = lines.first { $0.contains("messages in the reader feed:") }
    let storedCount = stored?.split(separator: ":")[1].split(separator: "(")[0]
      .trimmingCharacters(in: .whitespaces)
    let feedCount = feed?.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)
    #expect(storedCount != nil && storedCount == feedCount)
  }

  @Test(arguments: [
    ["demo", "--writers", "0"],
    ["demo", "--writers"],
    ["demo", "--messages", "many"],
    ["demo", "--seconds", "-1"],
    ["demo", "--speed", "3"],
    ["launch"],
    [],
  ])
  func badArgumentsGiveAOneLineErrorAndStatusTwo(arguments: [String]) throws {
    let run = try datasync(arguments)
    #expect(run.status == 2)
    #expect(run.output.isEmpty)
    #expect(run.error.hasPrefix("datasync: error: "))
    #expect(run.error.split(separator: "\n").count == 1)
  }

  @Test func helpDescribesTheOptions() throws {
    let run = try datasync(["--help"])
    #expect(run.status == 0)
    for option in ["demo", "--writers", "--messages", "--seconds", "--help"] {
      #expect(run.output.contains(option))
    }
    #expect(try datasync(["demo", "--help"]).output == run.output)
  }
}
