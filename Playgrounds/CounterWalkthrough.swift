import Datasync
import DatasyncStreams
import Foundation
import Streams

/// Concurrent increments add up exactly; a transaction computes from the current value.
enum CounterWalkthrough: Walkthrough {
  static let name = "counter"
  static let summary = "Concurrent increments and a transaction on one counter"

  static func run(output: WalkthroughOutput) async throws {
    let database = DatasyncDatabase()
    let clients = (0..<4).map { index in
      WebcomApplication(
        configuration: WebcomConfiguration(
          identifier: "counter-\(index)", backEnd: .embedded(database))
      ).datasyncService.createManager()
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for client in clients {
        let likes = try client.nodeThrows(for: "posts/42/likes")
        group.addTask {
          for _ in 0..<250 {
            try await likes.increment()
          }
        }
      }
      try await group.waitForAll()
    }
    let likes = try clients[0].nodeThrows(for: "posts/42/likes")
    output("likes after 4 clients x 250 increments: \(try await likes.value().asInt ?? -1)")

    let result = try await likes.streams.transaction { current in
      .set((current.asInt ?? 0) + 1_000)
    }.value
    output("transaction committed: \(result.committed), likes now \(result.value.asInt ?? -1)")

    let aborted = try await likes.transaction { _ in .abort }
    output(
      "aborted transaction committed: \(aborted.committed), likes still \(aborted.value.asInt ?? -1)"
    )
  }
}
