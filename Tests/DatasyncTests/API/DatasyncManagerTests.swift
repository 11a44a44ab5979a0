import Foundation
import Testing

@testable import Datasync

@Suite struct DatasyncManagerTests {
  let queue = DispatchQueue(label: "test.manager")

  @Test func nodesFollowThePathRules() throws {
    let manager = makeApplication().datasyncService.createManager()
    let bar = try manager.nodeThrows(for: "/foo/bar")
    #expect(bar.path == "/foo/bar" && bar.key == "bar")
    #expect((manager / "foo/bar") == bar)
    #expect(bar.relativeNode(for: "geek/")?.path == "/foo/bar/geek")
    #expect(bar.relativeNode(for: "/../geek//noob/.")?.path == "/foo/geek/noob")
    #expect(bar.relativeNode(for: "../geek/../..//../..")?.path == "/")
    #expect(bar.parent?.parent?.path == "/")
    #expect(bar.parent?.parent?.parent == nil)
    #expect(try bar.parentThrows.path == "/foo")
    #expect(throws: WebcomError.self) { try manager.nodeThrows(for: "/").parentThrows }
    #expect(manager.node(for: "a/b#c") == nil)
    #expect(bar.relativeNode(for: "x$") == nil)
    #expect(throws: WebcomError.self) { try bar.relativeNodeThrows(for: "[x]") }
    #expect(bar.description == "/foo/bar")
    let other = makeApplication().datasyncService.createManager()
    #expect(try other.nodeThrows(for: "foo/bar") != bar)
    #expect(Set([bar, try manager.nodeThrows(for: "foo/bar")]).count == 1)
    let created = bar.createChild()
    #expect(created.parent == bar && created.key.value.count == 20)
    #expect(created.key.date != nil)
  }

  @Test func releasingTheManagerCancelsItsStoredSubscriptionsImplicitly() throws {
    let service = makeApplication().datasyncService
    let recorder = SummaryRecorder()
    weak var weakManager: DatasyncManager?
    weak var weakSubscription: DatasyncSubscription?
    do {
      let manager = service.createManager()
      weakManager = manager
      let node = try manager.nodeThrows(for: "stored")
      weakSubscription = node.subscribe(
        to: .valueChange, queue: queue, onEvent: recorder.record, onCompletion: recorder.complete)
      #expect(recorder.wait(events: 1))
      // The event delivered holds its node, and so the manager, until its callback returns.
      queue.sync {}
    }
    #expect(weakManager == nil)
    #expect(recorder.wait(events: 1, completions: 1))
    #expect(recorder.recordedCompletions == [.cancelled(explicitly: false)])
    #expect(weakSubscription == nil)
    let other = try service.createManager().nodeThrows(for: "stored")
    try waitForResult { other.set(1, queue: $0, then: $1) }
    queue.sync {}
    #expect(recorder.recorded == ["=null"])
  }

  @Test func unsubscribeFromAllCancelsStoredSubscriptionsOnly() throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "all")
    let stored = EventRecorder()
    let kept = EventRecorder()
    node.subscribe(
      to: .valueChange, queue: queue, onEvent: stored.record, onCompletion: stored.complete)
    let own = node.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: kept.record,
      onCompletion: kept.complete)
    #expect(stored.wait(forCount: 1) && kept.wait(forCount: 1))
    manager.unsubscribeFromAll()
    #expect(stored.waitForCompletions(1))
    try waitForResult { node.set("after", queue: $0, then: $1) }
    #expect(kept.wait(forCount: 2))
    queue.sync {}
    #expect(stored.recorded.count == 1)
    #expect(stored.recordedCompletions == [.cancelled(explicitly: true)])
    #expect(kept.recordedCompletions.isEmpty)
    withExtendedLifetime(own) {}
  }

  @Test func anUnstoredSubscriptionIsCancelledWhenReleased() throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "unstored")
    let recorder = SummaryRecorder()
    var subscription = node.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: recorder.record,
      onCompletion: recorder.complete)
    #expect(recorder.wait(events: 1))
    #expect(subscription?.isActive == true)
    subscription = nil
    #expect(recorder.wait(events: 1, completions: 1))
    try waitForResult { node.set(1, queue: $0, then: $1) }
    queue.sync {}
    #expect(recorder.recorded == ["=null"])
    #expect(recorder.recordedCompletions == [.cancelled(explicitly: false)])
  }

  @Test func aNodeKeepsItsManagerServiceAndApplicationUsable() throws {
    let node = try #require(makeApplication().datasyncService.createManager().node(for: "x"))
    try waitForResult { node.set(42, queue: $0, then: $1) }
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.asInt == 42)
  }

  @Test func eventsCarryTheirNodeAndSubscription() throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try manager.nodeThrows(for: "carry")
    try waitForResult { node.set(["k": 1], queue: $0, then: $1) }
    let recorder = EventRecorder()
    let subscription = node.subscribe(to: .childAddition, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    let event = try #require(recorder.recorded.first)
    #expect(event.node == (try manager.nodeThrows(for: "carry/k")))
    // The node is made when read: every read gives an equal node, which works as any other.
    let eventNode = try #require(event.node)
    #expect(event.node == eventNode)
    #expect(try waitForResult { eventNode.value(queue: $0, then: $1) }.asInt == 1)
    #expect(event.subscription === subscription)
    #expect(event.acked)
  }

  @Test func subscribeRejectsEmptyEventTypesAndNegativeLimits() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "n")
    #expect(node.subscribe(to: .value(), queue: queue, onEvent: { _ in }) == nil)
    #expect(
      node.subscribe(
        to: .childAddition, childrenConstraint: .last(limit: -1), queue: queue, onEvent: { _ in })
        == nil)
  }

  @Test func connectionStateIsObservableAndOfflineWritesApplyLocally() throws {
    let database = DatasyncDatabase()
    let application = makeApplication(database: database)
    let service = application.datasyncService
    let manager = service.createManager()
    let states = Shared<[DatasyncState]>([])
    let connected = DispatchSemaphore(value: 0)
    manager.observeState(queue: queue) { state in
      states.update { $0.append(state) }
      if state != .disconnected { connected.signal() }
    }
    let node = try manager.nodeThrows(for: "offline")
    try waitForResult { node.set(1, queue: $0, then: $1) }
    #expect(service.state != .disconnected)
    #expect(connected.wait(timeout: .now() + 10) == .success)
    let recorder = EventRecorder()
    node.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    service.isConnectionEnabled = false
    #expect(service.state == .disconnected && !service.isConnectionEnabled)
    node.set(2, queue: queue)
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded.last?.value.asInt == 2 && recorder.recorded.last?.acked == false)
    #expect(database.value(at: try DatasyncPath(parsing: "offline")) == .int(1))
    service.isConnectionEnabled = true
    #expect(connected.wait(timeout: .now() + 10) == .success)
    try waitForResult { node.increment(queue: $0, then: $1) }
    #expect(database.value(at: try DatasyncPath(parsing: "offline")) == .int(3))
    let observed = states.current
    #expect(observed.suffix(2).first == .disconnected)
    #expect(zip(observed, observed.dropFirst()).allSatisfy { $0 != $1 })
  }

  @Test func stateObservationStartsWithTheCurrentStateAndStopsWhenCancelled() throws {
    let application = makeApplication()
    let service = application.datasyncService
    let manager = service.createManager()
    try waitForResult { manager.node(for: "warm")!.set(1, queue: $0, then: $1) }
    let current = service.state
    let states = Shared<[DatasyncState]>([])
    let first = DispatchSemaphore(value: 0)
    let observation = manager.observeState(queue: queue) { state in
      states.update { $0.append(state) }
      first.signal()
    }
    #expect(first.wait(timeout: .now() + 10) == .success)
    #expect(states.current == [current])
    observation.cancel()
    observation.cancel()
    service.isConnectionEnabled = false
    service.isConnectionEnabled = true
    try waitForResult { manager.node(for: "warm")!.set(2, queue: $0, then: $1) }
    queue.sync {}
    #expect(states.current == [current])
  }
}
