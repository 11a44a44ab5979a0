import Datasync
import DatasyncStreams
import Foundation
import Streams
import StreamsTesting

/// Debounce on user input: keystrokes become one search once typing pauses, combined with a live
/// catalog. Time is virtual (`TestScheduler`), so the walkthrough is exact and instant.
enum SearchDebounceWalkthrough: Walkthrough {
  static let name = "search-debounce"
  static let summary = "Search as you type: debounce keystrokes, combine with a live catalog"

  struct Product: Codable, Sendable {
    let name: String
  }

  static func run(output: WalkthroughOutput) async throws {
    let manager = WebcomApplication(configuration: WebcomConfiguration(identifier: "search"))
      .datasyncService.createManager()
    let products = try manager.nodeThrows(for: "products")
    for name in ["Swift Package", "Swing", "Rust Crate", "Sweater"] {
      try await products.push(Product(name: name))
    }

    let keystrokes = PassthroughSubject<String, Never>()
    let scheduler = TestScheduler()
    let searches = WalkthroughOutput(echoes: false)
    let cancellable =
      keystrokes
      .debounce(for: .milliseconds(300), scheduler: scheduler)
      .removeDuplicates()
      .setFailureType(to: WebcomError.self)
      .combineLatest(products.streams.children(as: Product.self))
      .map { query, catalog in
        let matches = catalog.values.map(\.name).filter { $0.lowercased().contains(query) }
        return "'\(query)' -> \(matches.joined(separator: ", "))"
      }
      .sink(receiveCompletion: { _ in }, receiveValue: { searches($0) })

    for query in ["s", "sw", "swi"] {
      keystrokes.send(query)
      scheduler.advance(by: .milliseconds(100))
    }
    output("typed s, sw, swi 100 ms apart: nothing searched yet (\(searches.transcript.count))")
    scheduler.advance(by: .milliseconds(200))
    try await waitUntil { searches.transcript.count == 1 }
    output("300 ms after the last keystroke, one search: \(searches.transcript[0])")

    try await products.push(Product(name: "Swirl"))
    try await waitUntil { searches.transcript.count == 2 }
    output("the catalog changes, the search updates: \(searches.transcript[1])")

    keystrokes.send("swi")
    scheduler.advance(by: .milliseconds(400))
    output("typing the same query again searches nothing new (\(searches.transcript.count))")

    keystrokes.send("swe")
    scheduler.advance(by: .milliseconds(300))
    try await waitUntil { searches.transcript.count == 3 }
    output("a new query: \(searches.transcript[2])")
    cancellable.cancel()
  }
}
