import Datasync
import DatasyncStreams
import Dispatch
import Foundation
import Streams
import Testing

/// A slow subscriber: writes made while it is busy come as one emission.
@Suite(.timeLimit(.minutes(1))) struct ConflationTests {
  /// The emissions of a stream whose subscriber blocks on its first emission until released.
  final class BlockedFeed<Output: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    // Protected by `lock`.
    private var received: [Output] = []
    private let firstArrived = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    func receive(_ output: Output) {
      let isFirst = lock.withLock {
        received.append(output)
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

    var emissions: [Output] { lock.withLock { received } }
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

    #expect(await eventually { feed.emissions.count == 2 })
    try await Task.sleep(for: .milliseconds(100))
    let emissions = feed.emissions
    #expect(emissions.count == 2)
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
    let node = try #require(manager.node(for: "counter"))
    try await node.set(0)
    let feed = BlockedFeed<Int>()
    let cancellable = node.streams.valueChanges(as: Int.self)
      .sink(receiveCompletion: { _ in }, receiveValue: { feed.receive($0) })
    #expect(feed.waitUntilBlocked())
    for value in 1...100 { node.set(value, then: nil) }
    feed.release()

    #expect(await eventually { feed.emissions.last == 100 })
    try await Task.sleep(for: .milliseconds(100))
    #expect(feed.emissions == [0, 100])
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

    #expect(await eventually { feed.emissions.count == 101 })
    #expect(feed.emissions == Array(0...100))
    cancellable.cancel()
  }
}
