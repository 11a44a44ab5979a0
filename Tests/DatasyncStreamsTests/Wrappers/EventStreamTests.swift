import Datasync
import DatasyncStreams
import Foundation
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct EventStreamTests {
  @Test func breakingOutOfALoopCancelsTheDatasyncSubscription() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let messages = try #require(manager.node(for: "rooms/loop/messages"))
    _ = try await seedMessages(20, at: messages)
    var received: [String] = []
    var subscription: DatasyncSubscription?
    for try await event in messages.streams.events(to: .childAddition).values {
      received.append(event.key.value)
      subscription = event.subscription
      if received.count == 10 { break }
    }
    #expect(received == (0..<10).map { String(format: "m%03d", $0) })
    let datasyncSubscription = try #require(subscription)
    #expect(await eventually { !datasyncSubscription.isActive })
  }

  @Test func deliversWithinDemandAndKeepsTheRest() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "demand"))
    _ = try await seedMessages(5, at: node)
    let recorder = RecordingSubscriber<DatasyncEvent, WebcomError>(initialDemand: .max(2))
    node.streams.events(to: .childAddition).subscribe(recorder)
    #expect(await eventually { recorder.values.count == 2 })
    try await (node / "z")!.set(Message(author: "a", text: "b"))
    #expect(recorder.values.count == 2)
    recorder.request(.max(10))
    #expect(await eventually { recorder.values.count == 6 })
    #expect(recorder.values.map(\.key.value) == ["m000", "m001", "m002", "m003", "m004", "z"])
    #expect(recorder.violations.isEmpty)
    recorder.cancel()
  }

  @Test func cancelStopsDeliveryAtOnce() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "cancel"))
    let recorder = RecordingSubscriber<DatasyncValue, WebcomError>()
    node.streams.valueChanges().subscribe(recorder)
    #expect(await eventually { recorder.values.count == 1 })
    recorder.cancel()
    try await node.set(1)
    try await node.set(2)
    _ = try await node.value()
    #expect(recorder.values.count == 1)
    #expect(recorder.completion == nil)
  }

  @Test func valueChangesDecodeAndSkipUndecodable() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "score"))
    try await node.set(1)
    var scores = node.streams.valueChanges(as: Int.self).values.makeAsyncIterator()
    #expect(try await scores.next() == 1)
    try await node.set("not a number")
    try await node.set(3)
    #expect(try await scores.next() == 3)
  }

  @Test func invalidRequestFailsTheStreamWithTheSubscriptionError() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "x"))
    let expected = #expect(throws: WebcomError.self) {
      try node.subscribeThrows(
        to: .childAddition, childrenConstraint: .last(limit: -1), onEvent: { _ in })
    }
    #expect(expected?.code == .invalidArgument)
    let events = await #expect(throws: WebcomError.self) {
      for try await _ in node.streams.events(
        to: .childAddition, childrenConstraint: .last(limit: -1)
      ).values {}
    }
    #expect(events == expected)
    let children = await #expect(throws: WebcomError.self) {
      for try await _ in node.streams.children(childrenConstraint: .last(limit: -1)).values {}
    }
    #expect(children == expected)
    let noEvent = await #expect(throws: WebcomError.self) {
      for try await _ in node.streams.events(to: .value()).values {}
    }
    #expect(noEvent?.code == .invalidArgument)
  }

  @Test func streamsReleaseEverythingAfterCancel() async throws {
    let observer: WeakObserver<DatasyncManager>
    do {
      let manager = makeApplication().datasyncService.createManager()
      observer = WeakObserver(manager)
      let node = try #require(manager.node(for: "release"))
      let cancellable = node.streams.children(as: Int.self).sink(
        receiveCompletion: { _ in }, receiveValue: { _ in })
      _ = try await node.value()
      cancellable.cancel()
    }
    #expect(await eventually { !observer.isAlive })
  }
}
