import Datasync
import Dispatch
import Streams
import StreamsTesting
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
        "secure-chat",
      ]))
  }

  @Test func secureChat() async throws {
    #expect(
      try await transcript(of: SecureChatWalkthrough.self) == [
        "alice signed in as alice",
        "bob signed in as bob",
        "alice and bob each wrote a message under their own uid",
        "bob sees alice's messages: +m1",
        "bob writing as alice: permissionDenied",
        "  bob's own view: +forged",
        "  bob's own view: -forged",
        "alice writing a message without a text: permissionDenied",
        "alice reads the room: Hi Bob / Hi Alice",
        "bob reads the room: Hi Bob / Hi Alice",
        "a visitor who is not signed in reading the room: permissionDenied",
      ])
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
    let scheduler = DispatchQueue.test
    let start = scheduler.now
    let output = WalkthroughOutput(echoes: false)
    try await SearchDebounceWalkthrough.run(
      output: output, scheduler: scheduler.eraseToAnyScheduler()
    ) { pause in
      scheduler.advance(by: pause)
    }
    #expect(
      output.transcript == [
        "typed s, sw, swi 100 ms apart: nothing searched yet (0)",
        "300 ms after the last keystroke, one search: 'swi' -> Swift Package, Swing",
        "the catalog changes, the search updates: 'swi' -> Swift Package, Swing, Swirl",
        "typing the same query again searches nothing new (2)",
        "a new query: 'swe' -> Sweater",
      ])
    #expect(start.distance(to: scheduler.now) == .milliseconds(1_200))
  }

  @Test func productSearchRunsOnceTypingPausesForThreeHundredMilliseconds() async throws {
    let manager = WebcomApplication(configuration: WebcomConfiguration(identifier: "search-test"))
      .datasyncService.createManager()
    let products = try manager.nodeThrows(for: "products")
    try await products.push(SearchDebounceWalkthrough.Product(name: "Swing"))
    let scheduler = DispatchQueue.test
    let search = SearchDebounceWalkthrough.ProductSearch(
      catalog: products, scheduler: scheduler.eraseToAnyScheduler())
    let results = WalkthroughOutput(echoes: false)
    let cancellable = search.results.sink(
      receiveCompletion: { _ in }, receiveValue: { results($0) })
    search.type("sw")
    scheduler.advance(by: .milliseconds(300))
    try await waitUntil { results.transcript.count == 1 }
    search.type("swin")
    scheduler.advance(by: .milliseconds(299))
    search.type("swing")
    scheduler.advance(by: .milliseconds(299))
    #expect(results.transcript == ["'sw' -> Swing"])
    scheduler.advance(by: .milliseconds(1))
    #expect(results.transcript == ["'sw' -> Swing", "'swing' -> Swing"])
    cancellable.cancel()
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
