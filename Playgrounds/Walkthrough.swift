import Foundation

/// A runnable walkthrough: `swift run Playgrounds <name>`.
protocol Walkthrough {
  /// The name to run it by.
  static var name: String { get }
  /// One line saying what it shows.
  static var summary: String { get }
  /// Runs it, writing what it shows to `output`.
  static func run(output: WalkthroughOutput) async throws
}

/// Where a walkthrough writes: standard output, and a transcript that tests read.
final class WalkthroughOutput: @unchecked Sendable {
  private let lock = NSLock()
  private let echoes: Bool
  // Protected by `lock`.
  private var lines: [String] = []

  /// An output that prints when `echoes` is true, and keeps a transcript in any case.
  init(echoes: Bool) {
    self.echoes = echoes
  }

  func callAsFunction(_ line: String) {
    lock.withLock { lines.append(line) }
    if echoes { print(line) }
  }

  /// Everything written so far.
  var transcript: [String] { lock.withLock { lines } }
}

/// Every walkthrough, in the order `swift run Playgrounds` lists them.
var walkthroughs: [any Walkthrough.Type] {
  [
    ChatFeedWalkthrough.self,
    EmployeeDirectoryWalkthrough.self,
    CounterWalkthrough.self,
    SearchDebounceWalkthrough.self,
    PresenceWalkthrough.self,
    SecureChatWalkthrough.self,
    ReadmeTour.self,
  ]
}
