import Datasync
import DatasyncStreams
import Foundation
import Streams

/// The source article's chat feed, solved: the feed arrives complete in one emission, and
/// re-subscribing never duplicates a row.
enum ChatFeedWalkthrough: Walkthrough {
  static let name = "chat-feed"
  static let summary =
    "A chat feed that knows when its initial load is complete and never duplicates"

  struct Message: Codable, Sendable {
    let author: String
    let text: String
  }

  static func run(output: WalkthroughOutput) async throws {
    let manager = WebcomApplication(configuration: WebcomConfiguration(identifier: "chat-feed"))
      .datasyncService.createManager()
    let messages = try manager.nodeThrows(for: "rooms/general/messages")
    for text in ["Hello", "Hi there", "How is everyone?"] {
      try await messages.push(Message(author: "seed", text: text))
    }

    for attempt in 1...3 {
      var feed = messages.streams.children(as: Message.self).values.makeAsyncIterator()
      guard let initial = try await feed.next() else { return }
      output("subscription \(attempt): initial load complete with \(initial.count) messages")
      try await messages.push(Message(author: "live", text: "live message \(attempt)"))
      guard let update = try await feed.next() else { return }
      for position in update.changes.inserted {
        output("  + \(update[position].value.text) (at position \(position))")
      }
      let keys = update.keys
      output("  \(update.count) rows, \(Set(keys).count) distinct keys")
    }
  }
}
