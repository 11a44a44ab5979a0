import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// Transactions and increments over the REST protocol: `if-match` with the expected value's
/// entity tag, `412` answered with the current value, the transaction run again.
@Suite(.timeLimit(.minutes(1))) struct RemoteTransactionTests {
  @Test func aCounterIncrementedByTransactionsAndIncrementsOfTwoClientsEndsExact() throws {
    let server = try TestDatabaseServer()
    let clients = [RemoteClient("alice", server: server), RemoteClient("bob", server: server)]
    let perClient = 15
    let results = Recorder<Int>()
    let increment: DatasyncTransaction.Function = { .set(($0.asInt ?? 0) + 1) }
    // Each client runs its operations one after the other, alternating both kinds.
    DispatchQueue.concurrentPerform(iterations: clients.count) { index in
      let client = clients[index]
      for number in 0..<perClient {
        let counter = try! client.node("counter")
        if number.isMultiple(of: 2) {
          let result = try? client.wait { queue, then in
            counter.transaction(increment, queue: queue, then: then)
          }
          results.append(result.map { $0.committed ? 1 : 0 } ?? -1)
        } else {
          let result = try? client.wait { queue, then in
            counter.increment(queue: queue, then: then)
          }
          results.append(result == nil ? -1 : 1)
        }
      }
    }
    let all = results.wait(for: 2 * perClient, timeout: 30)
    #expect(all.count == 2 * perClient)
    #expect(all.allSatisfy { $0 == 1 }, "\(all)")
    #expect(
      try server.server.database().value(at: DatasyncPath(parsing: "/counter"))
        == .int(Int64(2 * perClient)))
  }
}
