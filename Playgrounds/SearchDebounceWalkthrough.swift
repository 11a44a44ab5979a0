import Datasync
import DatasyncStreams
import Foundation
import Streams

/// Debounce on user input: keystrokes become one search once typing pauses, combined with a live
/// catalog. The search is a service written for production: it takes an
/// `AnySchedulerOf<DispatchQueue>`, so the app gives it `DispatchQueue.main` (real time) and its
/// test gives it `DispatchQueue.test` (virtual time: exact and instant, no waiting).
enum SearchDebounceWalkthrough: Walkthrough {
  static let name = "search-debounce"
  static let summary = "Search as you type: debounce keystrokes, combine with a live catalog"

  struct Product: Codable, Sendable {
    let name: String
  }

  /// Search as you type over a live catalog of products.
  ///
  /// A query is searched once typing pauses for 300 ms, and not again if it did not change; the
  /// result line is computed again whenever the catalog changes. Time is read only from
  /// `scheduler`.
  final class ProductSearch {
    /// The pause after the last keystroke before a query is searched.
    static let pause: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(300)

    private let keystrokes = PassthroughSubject<String, Never>()

    /// One line per search: `'query' -> matching products`.
    let results: AnyPublisher<String, WebcomError>

    /// A search over the products under `catalog`, timed by `scheduler`.
    init(catalog: DatasyncNode, scheduler: AnySchedulerOf<DispatchQueue>) {
      results =
        keystrokes
        .debounce(for: Self.pause, scheduler: scheduler)
        .removeDuplicates()
        .setFailureType(to: WebcomError.self)
        .combineLatest(catalog.streams.children(as: Product.self))
        .map { query, catalog in
          let matches = catalog.values.map(\.name).filter { $0.lowercased().contains(query) }
          return "'\(query)' -> \(matches.joined(separator: ", "))"
        }
        .eraseToAnyPublisher()
    }

    /// The search field's text changed to `query`.
    func type(_ query: String) {
      keystrokes.send(query)
    }
  }

  /// The app: the search runs on the main queue, and the user's pauses are real.
  static func run(output: WalkthroughOutput) async throws {
    try await run(output: output, scheduler: .main) { pause in
      try await Task.sleep(for: .nanoseconds(pause.magnitude))
    }
  }

  /// The walkthrough with the search timed by `scheduler`; `pause` lets that much of its time
  /// pass (sleeping on a real queue, advancing a test scheduler).
  static func run(
    output: WalkthroughOutput, scheduler: AnySchedulerOf<DispatchQueue>,
    pause: (DispatchQueue.SchedulerTimeType.Stride) async throws -> Void
  ) async throws {
    let manager = WebcomApplication(configuration: WebcomConfiguration(identifier: "search"))
      .datasyncService.createManager()
    let products = try manager.nodeThrows(for: "products")
    for name in ["Swift Package", "Swing", "Rust Crate", "Sweater"] {
      try await products.push(Product(name: name))
    }

    let search = ProductSearch(catalog: products, scheduler: scheduler)
    let searches = WalkthroughOutput(echoes: false)
    let cancellable = search.results.sink(
      receiveCompletion: { _ in }, receiveValue: { searches($0) })

    for query in ["s", "sw", "swi"] {
      search.type(query)
      try await pause(.milliseconds(100))
    }
    output("typed s, sw, swi 100 ms apart: nothing searched yet (\(searches.transcript.count))")
    try await pause(.milliseconds(200))
    try await waitUntil { searches.transcript.count == 1 }
    output("300 ms after the last keystroke, one search: \(searches.transcript[0])")

    try await products.push(Product(name: "Swirl"))
    try await waitUntil { searches.transcript.count == 2 }
    output("the catalog changes, the search updates: \(searches.transcript[1])")

    search.type("swi")
    try await pause(.milliseconds(400))
    output("typing the same query again searches nothing new (\(searches.transcript.count))")

    search.type("swe")
    try await pause(.milliseconds(300))
    try await waitUntil { searches.transcript.count == 3 }
    output("a new query: \(searches.transcript[2])")
    cancellable.cancel()
  }
}
