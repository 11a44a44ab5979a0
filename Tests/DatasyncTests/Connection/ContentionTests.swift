import Foundation
import Testing

@testable import Datasync

/// Three clients writing one counter through slow, unreliable connections.
@Suite struct ContentionTests {
  /// One client's bounded sequence of operations, each started when the previous one answered.
  private final class Writer: @unchecked Sendable {
    let client: TestClient
    let counter: DatasyncNode
    let queue: DispatchQueue
    /// Accessed only on `queue`.
    private var random: SeededRandom
    private var remaining: Int
    private let results: Shared<[WebcomResult<Int>]>
    private let finished: DispatchGroup

    init(
      client: TestClient, seed: UInt64, operations: Int, results: Shared<[WebcomResult<Int>]>,
      finished: DispatchGroup
    ) throws {
      self.client = client
      counter = try client.node("counter")
      queue = DispatchQueue(label: "test.contention.\(seed)")
      random = SeededRandom(seed: seed)
      remaining = operations
      self.results = results
      self.finished = finished
      finished.enter()
    }

    func start() {
      queue.async { self.next() }
    }

    /// Runs on `queue`.
    private func next() {
      guard remaining > 0 else {
        finished.leave()
        return
      }
      remaining -= 1
      if Int.random(in: 0..<8, using: &random) == 0 {
        client.connection.dropConnection()
      }
      if Bool.random(using: &random) {
        counter.increment(queue: queue) { result in
          self.results.update { $0.append(result.map { $0.asInt ?? -1 }) }
          self.next()
        }
      } else {
        let increment: DatasyncTransaction.Function = { .set(($0.asInt ?? 0) + 1) }
        counter.transaction(increment, queue: queue) { result in
          self.results.update {
            $0.append(result.map { $0.committed ? $0.value.asInt ?? -1 : -1 })
          }
          self.next()
        }
      }
    }
  }

  @Test(arguments: [11, 29] as [UInt64])
  func incrementsAndTransactionsOfThreeClientsAddUpExactly(seed: UInt64) throws {
    let database = DatasyncDatabase()
    let clients = (0..<3).map { TestClient("client\($0)", database: database) }
    for (index, client) in clients.enumerated() {
      client.connection.setLatency(
        .init(minimum: 0, maximum: 0.002, seed: seed &* 31 &+ UInt64(index)))
    }
    // Two clients keep the counter in their cache; the third runs its transactions from what
    // the back end tells it on conflicts.
    let queue = DispatchQueue(label: "test.contention.views")
    let views = clients.prefix(2).map { _ in EventRecorder() }
    for (client, view) in zip(clients, views) {
      try client.node("counter").subscribe(to: .valueChange, queue: queue, onEvent: view.record)
    }
    for view in views { #expect(view.wait(forCount: 1)) }

    let operationsPerClient = 40
    let results = Shared<[WebcomResult<Int>]>([])
    let finished = DispatchGroup()
    let writers = try clients.enumerated().map { index, client in
      try Writer(
        client: client, seed: seed &+ UInt64(index), operations: operationsPerClient,
        results: results, finished: finished)
    }
    for writer in writers { writer.start() }
    #expect(finished.wait(timeout: .now() + 60) == .success)

    let outcomes = results.current
    #expect(outcomes.count == 3 * operationsPerClient)
    let written = outcomes.compactMap { try? $0.get() }
    // A transaction may give up after 25 conflicts (a client that does not listen to the
    // counter learns its value only from its conflicts); it then writes nothing.
    let failures = outcomes.compactMap { outcome -> WebcomError? in
      guard case .failure(let error) = outcome else { return nil }
      return error
    }
    #expect(failures.allSatisfy { $0.code == .transactionTooManyRetries }, "\(failures)")
    #expect(written.count > outcomes.count / 2)
    // Every operation that succeeded added exactly one, atomically: the values written are
    // 1...n, each once, and the counter ends at n.
    #expect(written.sorted() == Array(1...written.count))
    let total = Int64(written.count)
    #expect(database.value(at: try DatasyncPath(parsing: "counter")) == .int(total))
    for view in views {
      #expect(view.wait { $0.last?.value.asInt == Int(total) })
    }
    withExtendedLifetime(writers) {}
  }
}
