import Foundation
import Testing

/// Runs the built `datasync` executable, as a user would.
@Suite(.timeLimit(.minutes(2))) struct DemoCommandTests {
  /// The summary's lines as label → value, whatever their alignment: `  label:   value` gives
  /// `label` → `value`.
  private func summary(of output: String) -> [String: String] {
    let lines = output.split(separator: "\n").drop { $0 != "Summary" }.dropFirst()
    var values: [String: String] = [:]
    for line in lines {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let label = line[..<colon].trimmingCharacters(in: .whitespaces)
      values[label] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    return values
  }

  /// The leading integer of a text, `12` for `12 (5 seeded)`.
  private func leadingCount(_ text: String?) -> Int? {
    text.flatMap { Int($0.prefix { $0.isNumber }) }
  }

  @Test func demoShowsALiveFeedAndACorrectSummary() throws {
    let run = try runDatasync(["demo", "--writers", "3", "--messages", "50", "--seconds", "1"])
    #expect(run.status == 0)
    #expect(run.output.contains("feed:"))
    let summary = summary(of: run.output)
    #expect(summary["duplicates seen"] == "0")
    #expect(summary["feed in key order"] == "yes")
    let stored = try #require(leadingCount(summary["messages in the database"]))
    #expect(leadingCount(summary["messages in the reader feed"]) == stored)
    #expect(
      summary["messages in the database"]?.contains("(50 seeded + \(stored - 50) pushed)") == true)
    // Writers start as the reader subscribes, so the initial load holds the 50 seeded messages and
    // possibly a few early ones: all of them, in one emission.
    let initialLoad = try #require(summary["initial load completed"])
    #expect(initialLoad.hasPrefix("after "))
    let initialCount = initialLoad.split(separator: "one emission of ").last
      .flatMap { Int($0.prefix { $0.isNumber }) }
    #expect((initialCount ?? 0) >= 50)
    let live = try #require(summary["live messages received"])
    #expect(leadingCount(live).map { $0 + (initialCount ?? 0) } == stored)
    #expect(run.output.contains("OK: the feed matches the database."))
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
    expectOneLineUsageError(try runDatasync(arguments))
  }
}
