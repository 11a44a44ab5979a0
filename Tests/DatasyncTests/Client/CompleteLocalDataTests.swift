import Foundation
import Testing

@testable import Datasync

/// Complete local data: a full local `set` at or above a path makes the cache complete there, so
/// subscriptions replay and reads answer from it even while the connection is disabled; a
/// `merge` makes only the children it names complete.
@Suite struct CompleteLocalDataTests {
  let queue = DispatchQueue(label: "test.complete-local-data")
  let database = DatasyncDatabase()
  let client: TestClient

  init() {
    client = TestClient("offline", database: database)
    client.service.isConnectionEnabled = false
  }

  private func node(_ path: String) throws -> DatasyncNode { try client.node(path) }

  /// The events a new subscription replays at once (a replay is queued when the subscription is
  /// made, so none after `queue.sync {}` means none at all).
  private func replay(
    of path: String, _ type: DatasyncEventType, keep subscriptions: inout [DatasyncSubscription]
  ) throws -> [String] {
    let recorder = EventRecorder()
    subscriptions.append(
      try #require(try node(path).subscribe(to: type, queue: queue, onEvent: recorder.record)))
    queue.sync {}
    return recorder.recorded.map(describe)
  }

  /// The value a read answers, or its error code.
  private func read(_ path: String) throws -> String {
    let node = try node(path)
    do {
      return try waitForResult { node.value(queue: $0, then: $1) }.json
    } catch let error as WebcomError {
      return "\(error.code)"
    }
  }

  @Test func aFullLocalSetRaisesEventsForLaterSubscriptionsAtAndBelowIt() throws {
    let profile = try node("profile")
    profile.set(["name": "Ada", "city": "London"], queue: queue)
    var kept: [DatasyncSubscription] = []
    #expect(
      try replay(of: "profile", .valueChange, keep: &kept) == [
        #"={"city":"London","name":"Ada"}"#
      ])
    #expect(
      try replay(of: "profile", .child(addition: true, change: true), keep: &kept) == [
        "+city", "+name",
      ])
    #expect(try replay(of: "profile/name", .valueChange, keep: &kept) == [#"="Ada""#])
    #expect(try replay(of: "profile/age", .valueChange, keep: &kept) == ["=null"])
    #expect(try read("profile") == #"{"city":"London","name":"Ada"}"#)
    #expect(try read("profile/age") == "null")
    #expect(try replay(of: "elsewhere", .valueChange, keep: &kept).isEmpty)
  }

  @Test func aMergeMakesOnlyTheChildrenItNamesComplete() throws {
    let settings = try node("settings")
    settings.merge(with: ["theme": "dark"], queue: queue)
    var kept: [DatasyncSubscription] = []
    #expect(try replay(of: "settings", .valueChange, keep: &kept).isEmpty)
    #expect(try replay(of: "settings", .childAddition, keep: &kept).isEmpty)
    #expect(try read("settings") == "disconnected")
    #expect(try replay(of: "settings/theme", .valueChange, keep: &kept) == [#"="dark""#])
    #expect(try read("settings/theme") == #""dark""#)
  }

  @Test func aMergeUnderACompletePathKeepsItComplete() throws {
    let settings = try node("settings")
    settings.set(["theme": "dark"], queue: queue)
    settings.merge(with: ["size": "large"], queue: queue)
    settings.relativeNode(for: "count")!.increment(by: 2, queue: queue)
    var kept: [DatasyncSubscription] = []
    #expect(
      try replay(of: "settings", .valueChange, keep: &kept) == [
        #"={"count":2,"size":"large","theme":"dark"}"#
      ])
  }

  @Test func anIncrementAloneDoesNotMakeItsNodeComplete() throws {
    try node("counter").increment(by: 1, queue: queue)
    var kept: [DatasyncSubscription] = []
    #expect(try replay(of: "counter", .valueChange, keep: &kept).isEmpty)
    #expect(try read("counter") == "disconnected")
  }

  @Test func aWaitingSubscriptionLoadsWhenALocalSetCompletesItsNode() throws {
    let recorder = EventRecorder()
    let later = try node("later")
    let subscription = try #require(
      later.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record))
    queue.sync {}
    #expect(recorder.recorded.isEmpty)
    let written = CallbackCounter()
    later.set(["x": 1], queue: queue, then: written.record)
    #expect(recorder.wait(forCount: 1))
    #expect(recorder.recorded.map(describe) == [#"={"x":1}"#])

    // Back online: the listen's data (older than the write, as listens are renewed before the
    // queued writes are sent) and the acknowledgement change nothing that was shown.
    client.service.isConnectionEnabled = true
    #expect(written.wait(for: 1))
    #expect(written.succeeded == 1)
    let stored = DatasyncValue(database.value(at: try DatasyncPath(parsing: "later")))
    #expect(stored.json == #"{"x":1}"#)
    queue.sync {}
    #expect(recorder.recorded.map(describe) == [#"={"x":1}"#])
    withExtendedLifetime(subscription) {}
  }

  @Test func aChildOfACompleteNodeLoadsWhenItsParentIsSetLater() throws {
    let recorder = EventRecorder()
    let child = try node("parent/child")
    let subscription = try #require(
      child.subscribe(to: .childAddition, queue: queue, onEvent: recorder.record))
    try node("parent").set(["child": ["a": 1, "b": 2]], queue: queue)
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded.map(describe) == ["+a", "+b"])
    withExtendedLifetime(subscription) {}
  }
}
