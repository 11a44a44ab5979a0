import Foundation
import Testing

@testable import Datasync

/// Releasing a service answers every request still waiting: nothing waits forever.
@Suite struct ServiceReleaseTests {
  let queue = DispatchQueue(label: "test.service-release")

  @Test func writesQueuedWhileDisabledAreCancelled() throws {
    let database = DatasyncDatabase()
    let counter = CallbackCounter()
    weak var weakService: DatasyncService?
    do {
      let client = TestClient("released", database: database)
      weakService = client.service
      client.service.isConnectionEnabled = false
      let node = try client.node("queued")
      node.set(1, queue: queue, then: counter.record)
      node.merge(with: ["a": 2], queue: queue, then: counter.record)
      node.increment(queue: queue, then: counter.record)
      node.set(3, at: .nextDisconnection, queue: queue, then: counter.record)
      node.cancelDisconnectionOperations(queue: queue, then: counter.record)
      queue.sync {}
      #expect(counter.succeeded == 0 && counter.failed.isEmpty)
    }
    #expect(weakService == nil)
    #expect(counter.wait(for: 5))
    #expect(counter.succeeded == 0)
    #expect(counter.failed.map(\.code) == Array(repeating: .writeCancelled, count: 5))
    #expect(counter.failed.first?.message.contains("/queued") == true)
    // None of them reached the back end.
    #expect(database.value(at: try DatasyncPath(parsing: "queued")) == .null)
  }

  @Test func requestsInFlightFailAsDisconnected() throws {
    let database = DatasyncDatabase()
    let counter = CallbackCounter()
    let states = StateRecorder()
    do {
      let client = TestClient("in-flight", database: database)
      let observation = client.manager.observeState(queue: queue, onChange: states.record)
      #expect(states.wait(connected: true))
      // The back end's answers take a while: the service is gone before they come back.
      client.connection.setLatency(.init(minimum: 0.2, maximum: 0.2))
      let node = try client.node("in-flight")
      node.set(1, queue: queue, then: counter.record)
      try client.node("unknown").value(queue: queue, then: counter.record)
      observation.cancel()
    }
    #expect(counter.wait(for: 2))
    #expect(counter.failed.map(\.code) == [.disconnected, .disconnected])
    #expect(counter.failed.first?.message.contains("may have been applied") == true)
  }
}
