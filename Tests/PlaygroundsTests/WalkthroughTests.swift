import Testing

@testable import Playgrounds

@Suite(.timeLimit(.minutes(1))) struct WalkthroughTests {
  private func transcript(of walkthrough: any Walkthrough.Type) async throws -> [String] {
    let output = WalkthroughOutput(echoes: false)
    try await walkthrough.run(output: output)
    return output.transcript
  }

  @Test func everyWalkthroughHasAUniqueName() {
    let names = walkthroughs.map { $0.name }
    #expect(Set(names).count == names.count)
    #expect(
      Set(names).isSuperset(of: [
        "chat-feed", "employee-directory", "counter", "search-debounce", "presence",
      ]))
  }

  @Test func chatFeed() async throws {
    #expect(
      try await transcript(of: ChatFeedWalkthrough.self) == [
        "subscription 1: initial load complete with 3 messages",
        "  + live message 1 (at position 3)",
        "  4 rows, 4 distinct keys",
        "subscription 2: initial load complete with 4 messages",
        "  + live message 2 (at position 4)",
        "  5 rows, 5 distinct keys",
        "subscription 3: initial load complete with 5 messages",
        "  + live message 3 (at position 5)",
        "  6 rows, 6 distinct keys",
      ])
  }

  @Test func employeeDirectory() async throws {
    #expect(
      try await transcript(of: EmployeeDirectoryWalkthrough.self) == [
        "directory: Ada, Alan",
        "after a hire: Ada, Alan, Grace",
        "after a departure: Ada, Grace",
      ])
  }

  @Test func counter() async throws {
    #expect(
      try await transcript(of: CounterWalkthrough.self) == [
        "likes after 4 clients x 250 increments: 1000",
        "transaction committed: true, likes now 2000",
        "aborted transaction committed: false, likes still 2000",
      ])
  }

  @Test func searchDebounce() async throws {
    #expect(
      try await transcript(of: SearchDebounceWalkthrough.self) == [
        "typed s, sw, swi 100 ms apart: nothing searched yet (0)",
        "300 ms after the last keystroke, one search: 'swi' -> Swift Package, Swing",
        "the catalog changes, the search updates: 'swi' -> Swift Package, Swing, Swirl",
        "typing the same query again searches nothing new (2)",
        "a new query: 'swe' -> Sweater",
      ])
  }

  @Test func presence() async throws {
    #expect(
      try await transcript(of: PresenceWalkthrough.self) == [
        "alice registered: clear presence/alice at her next disconnection",
        "bob sees: alice is online",
        "alice disconnects",
        "bob sees: alice went offline",
        "alice reconnects and sets her flag again",
        "bob sees: alice is online",
      ])
  }
}
