import Foundation
import Testing

@testable import Datasync

/// A subscription that conflates keeps waiting, while its queue is blocked, only the events its
/// subscriber still needs: its backlog is bounded by the data, not by the number of writes.
@Suite(.timeLimit(.minutes(1))) struct DeliveryConflationTests {
  /// Subscribes `recorder` to `node`'s `eventType` events on `queue`, with `conflation`; waits for
  /// the events of the initial data (`initialCount` of them).
  private func subscribe(
    _ node: DatasyncNode, to eventType: DatasyncEventType, on queue: DispatchQueue,
    conflation: DeliveryConflation, recorder: EventRecorder, ends: Shared<Int>,
    initialCount: Int
  ) throws -> DatasyncSubscription {
    let subscription = try node.subscribeThrows(
      to: eventType, childrenConstraint: .all, stores: false, queue: queue,
      conflation: conflation, onEvent: recorder.record,
      onDeliveryEnd: { ends.update { $0 += 1 } }, onCompletion: nil)
    #expect(recorder.wait(forCount: initialCount))
    queue.sync {}
    return subscription
  }

  @Test func aLatestEventSubscriptionKeepsOneEventWaitingWhateverTheNumberOfWrites() throws {
    let queue = DispatchQueue(label: "test.conflation.latest")
    let counter = try makeApplication().datasyncService.createManager().nodeThrows(for: "counter")
    let values = EventRecorder()
    let ends = Shared(0)
    let subscription = try subscribe(
      counter, to: .valueChange, on: queue, conflation: .latestEvent, recorder: values,
      ends: ends, initialCount: 1)
    let mailbox = DeliveryMailbox.mailbox(for: queue)

    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    for value in 1...1_000 { counter.set(value, queue: queue) }
    // Local writes raise their events before they return.
    #expect(mailbox.waitingEventCount == 1)
    // The places the latest event left are dropped as they pile up.
    #expect(mailbox.waitingParcelCount <= 17)
    release.signal()
    queue.sync {}

    #expect(values.recorded.map(\.value.asInt) == [nil, 1_000])
    #expect(ends.current == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test func aPerChildSubscriptionKeepsTheLatestEventOfEachChild() throws {
    let queue = DispatchQueue(label: "test.conflation.per-child")
    let list = try makeApplication().datasyncService.createManager().nodeThrows(for: "list")
    try waitForResult { list.set(["a": 0, "b": 0], queue: $0, then: $1) }
    let events = EventRecorder()
    let ends = Shared(0)
    let subscription = try subscribe(
      list, to: .child(addition: true, change: true, removal: true), on: queue,
      conflation: .latestEventPerChild, recorder: events, ends: ends, initialCount: 2)
    let mailbox = DeliveryMailbox.mailbox(for: queue)
    _ = events.take()

    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    for round in 1...300 {
      list.relativeNode(for: "a")!.set(round, queue: queue)
      list.relativeNode(for: "b")!.set(round, queue: queue)
    }
    for index in 0..<50 { list.relativeNode(for: "n\(index)")!.set(index, queue: queue) }
    list.relativeNode(for: "b")!.clear(queue: queue)
    // The latest event of each child waits (a changed, b removed, 50 added), whatever the number
    // of writes; a child at most twice (one that came after every key waiting is appended
    // without a lookup, and can wait once more when it changes after a greater one came).
    #expect(mailbox.waitingEventCount <= 2 * 52)
    release.signal()
    queue.sync {}

    let delivered = events.take()
    #expect(delivered.count <= 2 * 52)
    var latest: [String: String] = [:]
    for event in delivered { latest[event.key.value] = "\(describe(event)) \(event.value.json)" }
    #expect(latest.count == 52)
    #expect(latest["a"] == "~a 300")
    #expect(latest["b"] == "-b 300")
    #expect((0..<50).allSatisfy { latest["n\($0)"] == "+n\($0) \($0)" })
    #expect(ends.current == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test func callbackSubscriptionsOfTheSameQueueStillGetEveryEventInOrder() throws {
    let queue = DispatchQueue(label: "test.conflation.mixed")
    let counter = try makeApplication().datasyncService.createManager().nodeThrows(for: "counter")
    let latest = EventRecorder()
    let every = EventRecorder()
    let ends = Shared(0)
    let conflating = try subscribe(
      counter, to: .valueChange, on: queue, conflation: .latestEvent, recorder: latest,
      ends: ends, initialCount: 1)
    let keeping = try subscribe(
      counter, to: .valueChange, on: queue, conflation: .none, recorder: every, ends: ends,
      initialCount: 1)
    let mailbox = DeliveryMailbox.mailbox(for: queue)

    let release = DispatchSemaphore(value: 0)
    queue.async { release.wait() }
    for value in 1...200 { counter.set(value, queue: queue) }
    #expect(mailbox.waitingEventCount == 201)
    // Emptied places are dropped once they outnumber the others.
    #expect(mailbox.waitingParcelCount <= 2 * 201)
    release.signal()
    queue.sync {}

    #expect(latest.recorded.map(\.value.asInt) == [nil, 200])
    #expect(every.recorded.map(\.value.asInt) == [nil] + (1...200).map { $0 })
    withExtendedLifetime((conflating, keeping)) {}
  }

  /// Parcels of one subscription posted together merge as if they had been posted apart.
  @Test func parcelsOfOneSubscriptionPostedTogetherMerge() throws {
    let queue = DispatchQueue(label: "test.conflation.together")
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "together")
    let latest = EventRecorder()
    let perChild = EventRecorder()
    let ends = Shared(0)
    let latestSubscription = try subscribe(
      node, to: .valueChange, on: queue, conflation: .latestEvent, recorder: latest, ends: ends,
      initialCount: 1)
    let perChildSubscription = try node.subscribeThrows(
      to: .child(addition: true, change: true, removal: true), childrenConstraint: .all,
      stores: false, queue: queue, conflation: .latestEventPerChild, onEvent: perChild.record,
      onDeliveryEnd: nil, onCompletion: nil)
    _ = latest.take()
    func parcel(_ subscription: DatasyncSubscription, _ entries: [(String, Int)])
      -> DeliveryMailbox.Parcel
    {
      DeliveryMailbox.Parcel(
        subscription: subscription.core,
        records: entries.map { key, value in
          EventRecord(
            eventType: .childChange,
            path: DatasyncPath(validatedKeys: ["together", WebcomKey(key)]),
            value: .int(Int64(value)), previousKey: nil, acked: false)
        })
    }
    // A mailbox of its own, never kicked until the end: every post waits.
    let mailbox = DeliveryMailbox(queue: queue)
    mailbox.post([
      parcel(latestSubscription, [("v", 1)]), parcel(perChildSubscription, [("a", 1), ("b", 1)]),
      parcel(latestSubscription, [("v", 2)]), parcel(perChildSubscription, [("a", 2)]),
    ])
    mailbox.post([parcel(latestSubscription, [("v", 3)]), parcel(perChildSubscription, [("c", 1)])])
    #expect(mailbox.waitingEventCount == 4)
    mailbox.kick()
    queue.sync {}

    #expect(latest.take().map { "\($0.key.value) \($0.value.json)" } == ["v 3"])
    #expect(perChild.take().map { "\($0.key.value) \($0.value.json)" } == ["a 2", "b 1", "c 1"])
    withExtendedLifetime((latestSubscription, perChildSubscription)) {}
  }
}
