import Foundation
import Testing

@testable import Datasync

/// Local writes shown at once, then confirmed, reverted or resolved by the back end.
@Suite struct LatencyCompensationTests {
  let queue = DispatchQueue(label: "test.latency-compensation")

  @Test func aRejectedPushIsAddedThenRemovedAmongAcceptedWrites() throws {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(
        json: #"{"rules": {".read": true, "inbox": {"$item": {".write": "$item != 'secret'"}}}}"#))
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    alice.connection.setLatency(.init(minimum: 0.001, maximum: 0.005, seed: 7))
    let aliceEvents = EventRecorder()
    let aliceLoaded = EventRecorder()
    let inbox = try alice.node("inbox")
    inbox.subscribe(
      to: .child(addition: true, removal: true), queue: queue, onEvent: aliceEvents.record)
    inbox.subscribe(to: .valueChange, queue: queue, onEvent: aliceLoaded.record)
    let bobEvents = EventRecorder()
    try bob.node("inbox").subscribe(
      to: .child(addition: true, removal: true), queue: queue, onEvent: bobEvents.record)
    #expect(aliceLoaded.wait(forCount: 1))
    let callbacks = Shared<[String: WebcomResult<Void>]>([:])
    let answered = CallbackCounter()
    for key in ["a", "secret", "b"] {
      try alice.node("inbox/\(key)").set(key, queue: queue) { result in
        callbacks.update { $0[key] = result }
        answered.record(result)
      }
    }
    #expect(answered.wait(for: 3))
    #expect(aliceEvents.wait(forCount: 4) && bobEvents.wait(forCount: 2))
    queue.sync {}
    #expect(aliceEvents.recorded.map(describe) == ["+a", "+secret", "+b", "-secret"])
    #expect(aliceEvents.recorded.map(\.acked) == [false, false, false, true])
    #expect(bobEvents.recorded.map(describe) == ["+a", "+b"])
    guard case .failure(let error)? = callbacks.current["secret"] else {
      Issue.record("the write of /inbox/secret should fail")
      return
    }
    #expect(error.code == .permissionDenied)
    #expect(answered.succeeded == 2)
    #expect(inbox.cachedValue.asDictionary()?.keys.sorted() == ["a", "b"])
  }

  @Test func aPlainSetOnAnOverlappingPathAbortsARunningTransaction() throws {
    let database = DatasyncDatabase()
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    let bobScore = try bob.node("score")
    try waitForResult { bobScore.set(5, queue: $0, then: $1) }
    // Alice knows nothing of /score: her first compare-and-set expects null and conflicts. She
    // is offline, so that the set is certainly made before the conflict comes back.
    let score = try alice.node("score")
    alice.service.isConnectionEnabled = false
    let runs = Shared(0)
    let outcome = Shared<WebcomResult<DatasyncTransaction.Result>?>(nil)
    let done = CallbackCounter()
    let increment: DatasyncTransaction.Function = { value in
      runs.update { $0 += 1 }
      return .set((value.asInt ?? 0) + 1)
    }
    score.transaction(increment, queue: queue) { result in
      outcome.update { $0 = result }
      done.record(result)
    }
    try score.parentThrows.merge(with: ["score": 100], queue: queue)
    #expect(done.failed.isEmpty && done.succeeded == 0)
    alice.service.isConnectionEnabled = true
    #expect(done.wait(for: 1))
    let result = try #require(try outcome.current?.get())
    #expect(!result.committed)
    #expect(runs.current == 1)
    let other = try alice.node("other")
    try waitForResult { other.set(0, queue: $0, then: $1) }
    #expect(database.value(at: try DatasyncPath(parsing: "score")) == .int(100))
  }

  @Test func writesBesideATransactionDoNotAbortIt() throws {
    let database = DatasyncDatabase()
    let alice = TestClient("alice", database: database)
    let bob = TestClient("bob", database: database)
    let bobScore = try bob.node("game/score")
    try waitForResult { bobScore.set(5, queue: $0, then: $1) }
    let score = try alice.node("game/score")
    alice.service.isConnectionEnabled = false
    let done = CallbackCounter()
    let outcome = Shared<WebcomResult<DatasyncTransaction.Result>?>(nil)
    let increment: DatasyncTransaction.Function = { .set(($0.asInt ?? 0) + 1) }
    score.transaction(increment, queue: queue) { result in
      outcome.update { $0 = result }
      done.record(result)
    }
    // A merge at the parent that names other children, a set of a sibling, an increment.
    try score.parentThrows.merge(with: ["round": 2], queue: queue)
    try alice.node("game/players").set(["alice"], queue: queue)
    try alice.node("game/turns").increment(queue: queue)
    alice.service.isConnectionEnabled = true
    #expect(done.wait(for: 1))
    let result = try #require(try outcome.current?.get())
    #expect(result.committed && result.value.asInt == 6)
    #expect(database.value(at: try DatasyncPath(parsing: "game/score")) == .int(6))
  }

  @Test func backEndCurrentDateIsEstimatedWithTheClockOffsetThenResolved() throws {
    struct Stamp: Codable {
      var at: WebcomDate
    }
    let database = DatasyncDatabase()
    let backEndTime = Date(timeIntervalSince1970: 2_000_000_000)
    database.setClock { backEndTime }
    let alice = TestClient("alice", database: database)
    let stamp = try alice.node("stamp")
    try waitForResult { stamp.set(0, queue: $0, then: $1) }
    guard case .connected(let offset) = alice.service.state else {
      Issue.record("the service should be connected")
      return
    }
    #expect(abs(offset - backEndTime.timeIntervalSinceNow) < 60)
    let recorder = EventRecorder()
    stamp.subscribe(
      to: .value(change: true, acknowledgement: true), queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    recorder.take()

    let milliseconds = Int64(backEndTime.timeIntervalSince1970 * 1000)
    alice.service.isConnectionEnabled = false
    stamp.set(Stamp(at: .backEndCurrentDate), queue: queue)
    #expect(recorder.wait(forCount: 1))
    let estimate = try #require(recorder.take().first)
    #expect(!estimate.acked)
    let estimated = try #require(estimate.value.decoded(as: Stamp.self))
    #expect(abs(estimated.at.value.timeIntervalSince(backEndTime)) < 60)

    alice.service.isConnectionEnabled = true
    #expect(recorder.wait { events in events.contains { $0.eventType == .valueAcknowledgement } })
    let confirmed = try #require(recorder.recorded.last)
    #expect(confirmed.acked)
    #expect(confirmed.value.decoded(as: Stamp.self)?.at.milliseconds == milliseconds)
    #expect(
      database.value(at: try DatasyncPath(parsing: "stamp/at")) == .int(milliseconds))
    #expect(stamp.cachedValue.decoded(as: Stamp.self)?.at.milliseconds == milliseconds)
  }
}
