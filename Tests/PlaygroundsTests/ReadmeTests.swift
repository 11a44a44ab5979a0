import Foundation
import Testing

@testable import Playgrounds

/// The README's Swift blocks are the code of the `readme-tour` walkthrough.
@Suite struct ReadmeTests {
  private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// Lines without their indentation, blank lines dropped.
  private func normalized(_ text: some StringProtocol) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
  }

  @Test func everySwiftBlockOfTheReadmeIsInTheTour() throws {
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    let tour = normalized(
      try String(
        contentsOf: root.appendingPathComponent("Playgrounds/ReadmeTour.swift"), encoding: .utf8))
    let blocks = readme.components(separatedBy: "```swift\n").dropFirst()
      .map { $0.components(separatedBy: "```")[0] }
      .filter { !$0.contains(".package(") }
    #expect(blocks.count >= 5)
    for block in blocks {
      let lines = normalized(block)
      let found = tour.indices.contains { start in
        start + lines.count <= tour.count && Array(tour[start..<start + lines.count]) == lines
      }
      #expect(found, "README block not found in Playgrounds/ReadmeTour.swift:\n\(block)")
    }
  }

  @Test func theTourRuns() async throws {
    let output = WalkthroughOutput(echoes: false)
    try await ReadmeTour.run(output: output)
    #expect(
      output.transcript == [
        "new message: Hello!",
        "Ada has 1 visit",
        "2 messages, complete: [\"Hi\", \"Hello\"]",
        "ada: first",
        "alan: second",
        "search 'swift' at 500000000ns",
        "suggest 'swift'",
      ])
  }
}
