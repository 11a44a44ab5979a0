import Datasync
import DatasyncStreams
import Dispatch
import Foundation
import Streams
import Testing

@testable import Datasync

/// A slow subscriber: writes made while it is busy come as one emission.
@Suite(.timeLimit(.minutes(1))) struct ConflationTests {
  /// The emissions of a stream whose subscriber blocks on its first emission until released.
  final class BlockedFeed<Output: Sendable>: @unchecked Sendable {
    /// Protects `received`; signalled on each emission.
    private let condition = NSCondition()
    private var received: [Output] = []
    private let firstArrived = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func receive(_ output: Output) {
      let isFirst = condition.withLock {
        received.append(output)
        condition.broadcast()
        return received.count == 1
      }
      if isFirst {
        firstArrived.signal()
        released.wait()
      }
    }

    /// Waits until the subscriber is blocked in its first emission.
    func waitUntilBlocked() -> Bool {
      firstArrived.wait(timeout: .now() + 10) == .success
    }

    func release() { released.signal() }

    var emissions: [Output] { condition.withLock { received } }

    /// Waits (at most 10 s) until the emissions satisfy `predicate`; whether they do.
    func wait(until predicate: ([Output]) -> Bool) -> Bool {
      let deadline = Date(timeIntervalSinceNow: 10)
      return condition.withLock {
        while !predicate(received) {
          if !condition.wait(until: deadline) { return predicate(received) }
        }
        return true
      }
    }
  }

  @Test func writesWaitingForASlowSubscriberComeAsOneChildrenEmission() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "feed"))
    try await node.set(["b": 2, "d": 4, "f": 6])
    let feed = BlockedFeed<DatasyncChildren<Int>>()
    let cancellable = node.streams.children(as: Int.self)
      .sink(receiveCompletion: { _ in }, receiveValue: { feed.receive($0) })
    #expect(feed.waitUntilBlocked())

    // Local writes raise their events before they return: all wait for the blocked subscriber.
    (node / "a")!.set(1, then: nil)
    (node / "c")!.set(3, then: nil)
    (node / "d")!.set(40, then: nil)
    (node / "d")!.set(400, then: nil)
    (node / "f")!.clear(then: nil)
    (node / "g")!.set(7, then: nil)
    (node / "g")!.clear(then: nil)
    (node / "a")!.set(10, then: nil)
    feed.release()

    #expect(feed.wait { $0.count == 2 })
    // A later write's emission follows the coalesced one directly: nothing came in between.
    (node / "z")!.set(26, then: nil)
    #expect(feed.wait { $0.count == 3 })
    let emissions = Array(feed.emissions.prefix(2))
    #expect(feed.emissions.last?.changes.inserted == [4])
    let initial = try #require(emissions.first)
    #expect(initial.changes.isInitialLoad && initial.values == [2, 4, 6])
    let coalesced = try #require(emissions.last)
    #expect(!coalesced.changes.isInitialLoad)
    #expect(coalesced.keys == ["a", "b", "c", "d"])
    #expect(coalesced.values == [10, 2, 3, 400])
    #expect(coalesced.changes.inserted == [0, 2])
    #expect(coalesced.changes.updated == [3])
    #expect(coalesced.changes.removed == [2])
    cancellable.cancel()
  }

  @Test func aBlockedChildrenStreamKeepsOneEventPerChildWaiting() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "conflation-backlog"))
    try await node.set(["a": 0])
    let feed = BlockedFeed<DatasyncChildren<Int>>()
    let cancellable = node.streams.children(as: Int.self)
      .sink(receiveCompletion: { _ in }, receiveValue: { feed.receive($0) })
    #expect(feed.waitUntilBlocked())

    for round in 1...500 {
      (node / "a")!.set(round, then: nil)
      (node / "b")!.set(round, then: nil)
    }
    for index in 10..<30 { (node / "n\(index)")!.set(index, then: nil) }
    // What waits for the blocked queue: the latest event of each child (a, b and 20 new ones)
    // and one end-of-write mark, not 1,020 writes' events.
    let mailbox = try #require(DeliveryMailbox.mailboxes(labelled: "/conflation-backlog").first)
    #expect(mailbox.waitingEventCount == 23)
    feed.release()

    #expect(feed.wait { $0.count == 2 })
    let coalesced = try #require(feed.emissions.last)
    #expect(coalesced.keys == ["a", "b"] + (10..<30).map { WebcomKey("n\($0)") })
    #expect(coalesced.values == [500, 500] + Array(10..<30))
    #expect(coalesced.changes.inserted == Array(1..<22))
    #expect(coalesced.changes.updated == [0])
    #expect(coalesced.changes.removed.isEmpty)
    cancellable.cancel()
  }

  /// Writers on several threads change, add and remove a few children while the reader's
  /// queue is now blocked, now free: every emission's change set leads from the previous
  /// emission to it, and the last one is the database's value.
  @Test func concurrentWritesToFewChildrenConflateIntoConsistentEmissions() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "conflation-stress"))
    try await node.set(["k0": 0])
    let feed = BlockedFeed<DatasyncChildren<Int>>()
    let cancellable = node.streams.children(as: Int.self)
      .sink(receiveCompletion: { _ in }, receiveValue: { feed.receive($0) })
    #expect(feed.waitUntilBlocked())
    let children = (0..<8).map { (node / "k\($0)")! }
    DispatchQueue.concurrentPerform(iterations: 4) { writer in
      for step in 0..<400 {
        let child = children[(writer * 7 + step * 3) % children.count]
        if step % 5 == 4 {
          child.clear(then: nil)
        } else {
          child.set(writer * 1_000 + step, then: nil)
        }
        if writer == 0, step == 200 { feed.release() }
      }
    }
    let stored = try await node.value().asDictionary() ?? [:]
    let expected = stored.keys.sorted()
    let expectedValues = expected.map { stored[$0]?.asInt }
    // An emission can show the final keys before the final values: wait for both.
    #expect(
      feed.wait {
        $0.last?.keys.map(\.value) == expected
          && $0.last?.values.map(Optional.some) == expectedValues
      })
    let emissions = feed.emissions
    for (previous, next) in zip(emissions, emissions.dropFirst()) {
      var keys = previous.keys
      for position in next.changes.removed.reversed() { keys.remove(at: position) }
      for position in next.changes.inserted { keys.insert(next.keys[position], at: position) }
      #expect(keys == next.keys)
      #expect(!next.changes.isInitialLoad)
    }
    let last = try #require(emissions.last)
    #expect(last.values == expected.map { stored[$0]!.asInt! })
    cancellable.cancel()
  }

  @Test func aSubscriberThatKeepsUpGetsOneEmissionPerWrite() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "feed"))
    try await node.set(["a": 1])
    var feed = node.streams.children(as: Int.self).values.makeAsyncIterator()
    _ = try #require(try await feed.next())
    for value in 2...5 {
      try await (node / "k\(value)")!.set(value)
      let next = try #require(try await feed.next())
      #expect(next.changes.inserted == [value - 1])
      #expect(next.count == value)
    }
  }

  @Test func valuesWaitingForASlowSubscriberComeAsTheLatest() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "conflation-latest"))
    try await node.set(0)
    let feed = BlockedFeed<Int>()
    let cancellable = node.streams.valueChanges(as: Int.self)
      .sink(receiveCompletion: { _ in }, receiveValue: { feed.receive($0) })
    #expect(feed.waitUntilBlocked())
    for value in 1...100 { node.set(value, then: nil) }
    // Only the latest value waits for the blocked queue.
    let mailbox = try #require(DeliveryMailbox.mailboxes(labelled: "/conflation-latest").first)
    #expect(mailbox.waitingEventCount == 1)
    feed.release()

    #expect(feed.wait { $0.last == 100 })
    // A later write's emission follows the latest value directly: nothing came in between.
    node.set(101, then: nil)
    #expect(feed.wait { $0.last == 101 })
    #expect(feed.emissions == [0, 100, 101])
    cancellable.cancel()
  }

  @Test func eventStreamsKeepEveryEventOfASlowSubscriber() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "counter"))
    try await node.set(0)
    let feed = BlockedFeed<Int>()
    let cancellable = node.streams.events(to: .valueChange)
      .compactMap { $0.value.decoded(as: Int.self) }
      .sink(receiveCompletion: { _ in }, receiveValue: { feed.receive($0) })
    #expect(feed.waitUntilBlocked())
    for value in 1...100 { node.set(value, then: nil) }
    feed.release()

    #expect(feed.wait { $0.count == 101 })
    #expect(feed.emissions == Array(0...100))
    cancellable.cancel()
  }
}
