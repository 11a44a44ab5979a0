import Foundation
import Testing

@testable import Datasync

@Suite struct DatasyncNodeSubscribingTests {
  struct Employee: Codable, Equatable {
    let name: String
    let yearOfBirth: Int
  }

  /// The example of the reference: a directory keeping its employees in a dictionary.
  final class EmployeeDirectory: @unchecked Sendable {
    let datasyncManager: DatasyncManager
    /// Accessed only on `queue`.
    var employees: [String: Employee] = [:]
    let queue = DispatchQueue(label: "test.directory")

    init(manager: DatasyncManager) {
      datasyncManager = manager
    }

    func assignEmployees() {
      let node = datasyncManager.node(for: "employees")
      node?.assignChildren(to: \.employees, on: self, queue: queue)
    }

    var snapshot: [String: Employee] { queue.sync { employees } }
  }

  @Test func assignChildrenKeepsADictionaryEqualToTheChildren() throws {
    let database = DatasyncDatabase()
    let writer = try makeApplication(database: database).datasyncService.createManager()
      .nodeThrows(for: "employees")
    try waitForResult {
      writer.set(
        [
          "ada": Employee(name: "Ada", yearOfBirth: 1815),
          "alan": Employee(name: "Alan", yearOfBirth: 1912),
        ],
        queue: $0, then: $1)
    }
    let directory = EmployeeDirectory(
      manager: makeApplication(database: database).datasyncService.createManager())
    directory.employees = ["stale": Employee(name: "Stale", yearOfBirth: 0)]
    directory.assignEmployees()
    let reader = try directory.datasyncManager.nodeThrows(for: "employees")

    /// Once the writer's writes are acknowledged, the back end has sent them to the reader: a
    /// read of an unwatched path by the reader comes back after them, and the directory's queue
    /// then holds their events.
    func expectDirectoryEqualsNode() throws {
      let unwatched = try reader.relativeNodeThrows(for: "../unwatched")
      try waitForResult { unwatched.value(queue: $0, then: $1) }
      let value = DatasyncValue(database.value(at: try DatasyncPath(parsing: "employees")))
      let expected = value.asDictionary()?.compactMapValues { $0.decoded(as: Employee.self) }
      #expect(directory.snapshot == expected)
    }

    try expectDirectoryEqualsNode()
    #expect(directory.snapshot.keys.sorted() == ["ada", "alan"])
    try waitForResult {
      writer.merge(
        with: ["grace": Employee(name: "Grace", yearOfBirth: 1906)], queue: $0, then: $1)
    }
    try waitForResult {
      writer.relativeNode(for: "ada/yearOfBirth")!.set(1816, queue: $0, then: $1)
    }
    try waitForResult { writer.relativeNode(for: "alan")!.clear(queue: $0, then: $1) }
    try waitForResult {
      writer.relativeNode(for: "broken")!.set("not an employee", queue: $0, then: $1)
    }
    try expectDirectoryEqualsNode()
    #expect(directory.snapshot.keys.sorted() == ["ada", "grace"])
    #expect(directory.snapshot["ada"]?.yearOfBirth == 1816)
  }

  @Test func decodedValueSubscribeSkipsUndecodableValues() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "typed")
    let queue = DispatchQueue(label: "test.decoded")
    let received = Shared<[Int]>([])
    let done = DispatchSemaphore(value: 0)
    node.decodedValueSubscribe(queue: queue) { (value: Int) in
      received.update { $0.append(value) }
      if value == 3 { done.signal() }
    }
    node.set(1, queue: queue)
    node.set("text", queue: queue)
    node.set(3, queue: queue)
    #expect(done.wait(timeout: .now() + 10) == .success)
    let values = received.current
    #expect(values.last == 3 && !values.isEmpty)
    #expect(values.allSatisfy { [1, 3].contains($0) })
  }

  @Test func theApplicationDecoderIsUsed() throws {
    struct Stamp: Codable, Equatable { let date: Date }
    let application = makeApplication()
    application.jsonEncoder.dateEncodingStrategy = .secondsSince1970
    application.jsonDecoder.dateDecodingStrategy = .secondsSince1970
    let node = try application.datasyncService.createManager().nodeThrows(for: "stamp")
    let stamp = Stamp(date: Date(timeIntervalSince1970: 1_000))
    try waitForResult { node.set(stamp, queue: $0, then: $1) }
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.json == #"{"date":1000}"#)
    #expect(try waitForResult { node.decodedValue(as: Stamp.self, queue: $0, then: $1) } == stamp)
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.decoded(as: Stamp.self) == stamp)
  }

  @Test func valueEventsWithoutDataCarryNull() throws {
    let node = try makeApplication().datasyncService.createManager().nodeThrows(for: "quiet")
    let queue = DispatchQueue(label: "test.without-data")
    let recorder = EventRecorder()
    node.subscribe(
      to: .value(change: true, withoutData: true), queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    node.set("payload", queue: queue)
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded.allSatisfy { $0.value.isNull && $0.eventType == .valueChange })
  }

  @Test func cachedValueShowsAWriteUntilItsAcknowledgementWhenNothingIsSubscribed() throws {
    let service = makeApplication().datasyncService
    let node = try service.createManager().nodeThrows(for: "cache")
    #expect(node.cachedValue.isNull)
    service.isConnectionEnabled = false
    let written = DispatchSemaphore(value: 0)
    node.set(["a": 1], queue: DispatchQueue(label: "test.cache")) { _ in written.signal() }
    #expect(node.cachedValue.json == #"{"a":1}"#)
    service.isConnectionEnabled = true
    #expect(written.wait(timeout: .now() + 10) == .success)
    // Acknowledged where nothing is subscribed: the cache keeps no copy.
    #expect(node.cachedValue.isNull)
    #expect(try waitForResult { node.value(queue: $0, then: $1) }.json == #"{"a":1}"#)
    #expect(node.cachedValue.isNull)
  }

  @Test func cachedValueKeepsAnAcknowledgedWriteUnderASubscription() throws {
    let manager = makeApplication().datasyncService.createManager()
    let room = try manager.nodeThrows(for: "room")
    let recorder = SummaryRecorder()
    room.subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.cache"), onEvent: recorder.record)
    #expect(recorder.wait(events: 1))
    let message = try manager.nodeThrows(for: "room/messages/1")
    try waitForResult { message.set("hello", queue: $0, then: $1) }
    #expect(message.cachedValue.asString == "hello")
    #expect(room.cachedValue.json == #"{"messages":{"1":"hello"}}"#)
  }

  @Test func disconnectionOperationsRunWhenTheClientDisconnects() throws {
    let database = DatasyncDatabase()
    let alice = makeApplication("alice", database: database)
    let presence = try alice.datasyncService.createManager().nodeThrows(for: "presence/alice")
    let status = try alice.datasyncService.createManager().nodeThrows(for: "status/alice")
    try waitForResult { presence.set(true, queue: $0, then: $1) }
    try waitForResult { presence.clear(at: .nextDisconnection, queue: $0, then: $1) }
    try waitForResult { status.set("offline", at: .onDisconnection, queue: $0, then: $1) }
    try waitForResult { status.set("online", queue: $0, then: $1) }
    let observer = try makeApplication("bob", database: database).datasyncService.createManager()
      .nodeThrows(for: "presence")
    let recorder = EventRecorder()
    observer.subscribe(
      to: .child(addition: true, removal: true), queue: DispatchQueue(label: "test.presence"),
      onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    alice.datasyncService.isConnectionEnabled = false
    #expect(recorder.wait(forCount: 2))
    #expect(recorder.recorded.map(describe) == ["+alice", "-alice"])
    #expect(database.value(at: try DatasyncPath(parsing: "status/alice")) == .string("offline"))
    alice.datasyncService.isConnectionEnabled = true
    try waitForResult { status.set("online", queue: $0, then: $1) }
    try waitForResult { status.cancelDisconnectionOperations(queue: $0, then: $1) }
    alice.datasyncService.isConnectionEnabled = false
    alice.datasyncService.isConnectionEnabled = true
    try waitForResult { status.relativeNode(for: "..")!.value(queue: $0, then: $1) }
    #expect(database.value(at: try DatasyncPath(parsing: "status/alice")) == .string("online"))
  }
}

@Suite struct CompletedSubscriptionPolicyTests {
  let queue = DispatchQueue(label: "test.policy")

  private func endSubscription(
    policy: DatasyncCompletedSubscriptionPolicy, explicitly: Bool, database: DatasyncDatabase
  ) throws -> DatasyncNode {
    let manager = makeApplication(database: database).datasyncService.createManager()
    let node = try manager.nodeThrows(for: "policy")
    let recorder = SummaryRecorder()
    var subscription = node.subscribe(
      to: .valueChange, stores: false, queue: queue, onEvent: recorder.record,
      onCompletion: recorder.complete)
    #expect(recorder.wait(events: 1))
    subscription?.completedSubscriptionPolicy = policy
    #expect(subscription?.completedSubscriptionPolicy == policy)
    if explicitly { subscription?.cancel() } else { subscription = nil }
    #expect(recorder.wait(events: 1, completions: 1))
    return node
  }

  private func writeElsewhere(_ database: DatasyncDatabase, _ value: Int) throws {
    let other = try makeApplication(database: database).datasyncService.createManager()
      .nodeThrows(for: "policy")
    try waitForResult { other.set(value, queue: $0, then: $1) }
  }

  @Test func forgetDataDropsTheCache() throws {
    let database = DatasyncDatabase()
    try writeElsewhere(database, 1)
    let node = try endSubscription(policy: .forgetData, explicitly: true, database: database)
    #expect(node.cachedValue.isNull)
  }

  @Test func keepDataKeepsTheLastValue() throws {
    let database = DatasyncDatabase()
    try writeElsewhere(database, 1)
    let node = try endSubscription(policy: .keepData, explicitly: true, database: database)
    try writeElsewhere(database, 2)
    #expect(node.cachedValue.asInt == 1)
  }

  @Test func keepUpdatingDataKeepsListening() throws {
    let database = DatasyncDatabase()
    try writeElsewhere(database, 1)
    let node = try endSubscription(policy: .keepUpdatingData, explicitly: true, database: database)
    try writeElsewhere(database, 2)
    try waitForResult { node.value(queue: $0, then: $1) }
    let deadline = Date(timeIntervalSinceNow: 10)
    while node.cachedValue.asInt != 2 && Date() < deadline {
      try waitForResult { node.relativeNode(for: "../elsewhere")!.value(queue: $0, then: $1) }
    }
    #expect(node.cachedValue.asInt == 2)
  }

  @Test func keepUpdatingDataWhenImplicitDependsOnHowTheSubscriptionEnded() throws {
    let database = DatasyncDatabase()
    try writeElsewhere(database, 1)
    let explicit = try endSubscription(
      policy: .keepUpdatingDataWhenImplicit, explicitly: true, database: database)
    #expect(explicit.cachedValue.isNull)
    let implicit = try endSubscription(
      policy: .keepUpdatingDataWhenImplicit, explicitly: false, database: database)
    #expect(implicit.cachedValue.asInt == 1)
  }

  @Test func unsubscribeFromAllIsAnExplicitCancelForThePolicy() throws {
    let database = DatasyncDatabase()
    try writeElsewhere(database, 1)
    let manager = makeApplication(database: database).datasyncService.createManager()
    let node = try manager.nodeThrows(for: "policy")
    let recorder = SummaryRecorder()
    let subscription = try #require(
      node.subscribe(
        to: .valueChange, queue: queue, onEvent: recorder.record,
        onCompletion: recorder.complete))
    #expect(recorder.wait(events: 1))
    subscription.completedSubscriptionPolicy = .keepUpdatingDataWhenImplicit
    manager.unsubscribeFromAll()
    #expect(recorder.wait(events: 1, completions: 1))
    #expect(recorder.recordedCompletions == [.cancelled(explicitly: true)])
    // The listen is gone with the data: the cache forgot the value and a later write elsewhere
    // does not come back into it.
    #expect(node.cachedValue.isNull)
    try writeElsewhere(database, 2)
    try waitForResult { node.relativeNode(for: "../elsewhere")!.value(queue: $0, then: $1) }
    #expect(node.cachedValue.isNull)
  }
}
