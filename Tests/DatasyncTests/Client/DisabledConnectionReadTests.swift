import Foundation
import Testing

@testable import Datasync

/// Reads while the application has disabled the connection: answered from the cache when it
/// holds the complete value, else `disconnected` at once, never a wait.
@Suite struct DisabledConnectionReadTests {
  let queue = DispatchQueue(label: "test.disabled-reads")

  @Test func aReadTheCacheCannotAnswerFailsAtOnce() async throws {
    let database = DatasyncDatabase()
    let writer = try TestClient("writer", database: database).node("remote")
    try waitForResult { writer.set("value", queue: $0, then: $1) }
    let client = TestClient("reader", database: database)
    client.service.isConnectionEnabled = false
    let node = try client.node("remote")
    let error = #expect(throws: WebcomError.self) {
      try waitForResult { node.value(queue: $0, then: $1) }
    }
    #expect(error?.code == .disconnected)
    #expect(error?.message.contains("/remote") == true)
    let decoded = #expect(throws: WebcomError.self) {
      try waitForResult { node.decodedValue(as: String.self, queue: $0, then: $1) }
    }
    #expect(decoded?.code == .disconnected)
    await #expect(throws: WebcomError.self) { try await node.value() }

    client.service.isConnectionEnabled = true
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.asString == "value")
  }

  @Test func aListenedNodeIsReadFromTheCacheWhileDisabled() throws {
    let client = TestClient("listener", database: DatasyncDatabase())
    let node = try client.node("watched")
    try waitForResult { node.set(["a": 1], queue: $0, then: $1) }
    let recorder = EventRecorder()
    let subscription = node.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    client.service.isConnectionEnabled = false
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.json == #"{"a":1}"#)
    #expect(
      try waitForResult { node.relativeNode(for: "a")!.value(queue: $0, then: $1) }.asInt == 1)
    withExtendedLifetime(subscription) {}
  }

  @Test func disablingTheConnectionAnswersTheReadsStillWaiting() throws {
    let client = TestClient("waiting", database: DatasyncDatabase())
    let states = StateRecorder()
    let observation = client.manager.observeState(queue: queue, onChange: states.record)
    #expect(states.wait(connected: true))
    // A lost network (not the application) keeps reads waiting for the connection...
    client.connection.dropConnection(reconnecting: false)
    #expect(states.wait(connected: false))
    let counter = CallbackCounter()
    let unknown = try client.node("unknown")
    unknown.value(queue: queue, then: counter.record)
    unknown.decodedValue(as: Int.self, queue: queue, then: counter.record)
    // ...one that a local set completes meanwhile is answered from the cache...
    let local = try client.node("local")
    let localValue = Shared<Int?>(nil)
    local.value(queue: queue) { result in
      localValue.update { $0 = (try? result.get())?.asInt }
      counter.record(result)
    }
    local.set(7, queue: queue)
    queue.sync {}
    #expect(counter.succeeded == 0 && counter.failed.isEmpty)
    // ...until the application disables the connection: then they are answered at once.
    client.service.isConnectionEnabled = false
    #expect(counter.wait(for: 3))
    #expect(counter.succeeded == 1 && localValue.current == 7)
    #expect(counter.failed.map(\.code) == [.disconnected, .disconnected])
    // A late answer of the back end, after re-enabling, is not delivered a second time.
    client.service.isConnectionEnabled = true
    #expect(states.wait(connected: true))
    try waitForResult { unknown.relativeNode(for: "../other")!.value(queue: $0, then: $1) }
    queue.sync {}
    #expect(counter.succeeded == 1 && counter.failed.count == 2)
    observation.cancel()
  }

  @Test func readsRacingConnectionTogglesAreAllAnswered() throws {
    let client = TestClient("racing", database: DatasyncDatabase())
    let known = try client.node("known")
    try waitForResult { known.set(["a": 1], queue: $0, then: $1) }
    let counter = CallbackCounter()
    let readers = 4
    let readsPerReader = 50
    DispatchQueue.concurrentPerform(iterations: readers + 1) { worker in
      if worker == readers {
        for round in 0..<20 { client.service.isConnectionEnabled = round % 2 == 1 }
        return
      }
      for index in 0..<readsPerReader {
        let path = index % 3 == 0 ? "known/a" : "unknown/\(worker)/\(index)"
        client.manager.node(for: path)?.value(queue: queue, then: counter.record)
        if index % 10 == 0 { known.relativeNode(for: "w\(worker)")?.set(index, queue: queue) }
      }
    }
    client.service.isConnectionEnabled = true
    #expect(counter.wait(for: readers * readsPerReader))
    #expect(counter.succeeded + counter.failed.count == readers * readsPerReader)
    #expect(counter.failed.allSatisfy { $0.code == .disconnected })
  }
}
