import Datasync
import DatasyncStreams
import Foundation
import Streams

struct Message: Codable, Equatable, Sendable {
  let author: String
  let text: String
}

/// A fresh application on its own embedded database.
func makeApplication() -> WebcomApplication {
  WebcomApplication(configuration: WebcomConfiguration(identifier: "streams-tests-\(UUID())"))
}

/// Seeds `count` messages keyed `m000`, `m001`, … under `node`.
func seedMessages(_ count: Int, at node: DatasyncNode) async throws -> [String: Message] {
  var seed: [String: Message] = [:]
  for index in 0..<count {
    seed[String(format: "m%03d", index)] = Message(author: "seed", text: "message \(index)")
  }
  try await node.set(seed)
  return seed
}

/// Waits, yielding, until `condition` holds or `timeout` passes; returns whether it held.
func eventually(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    if condition() { return true }
    await Task.yield()
  }
  return condition()
}

/// Observes whether an object is still alive. The weak reference is set once, at init; the Swift
/// runtime makes reading it safe from any thread.
final class WeakObserver<Object: AnyObject>: @unchecked Sendable {
  private weak var object: Object?

  init(_ object: Object) {
    self.object = object
  }

  var isAlive: Bool { object != nil }
}
