import DatasyncStreams
import Foundation
import Streams
import StreamsTesting
import Testing

@testable import Datasync

/// The limit catches a hang, not slowness: under the thread sanitizer, with the whole suite
/// running on two cores, these tests' awaits wait for the cooperative pool for about a minute
/// (they finish 105–110 s into a run of 108–116 s), and a one-minute limit failed them once.
@Suite(.timeLimit(.minutes(3))) struct StateAndRevocationTests {
  @Test func serviceStateStartsWithTheCurrentStateThenFollowsTheConnection() async throws {
    let application = makeApplication()
    let service = application.datasyncService
    let warm = try service.createManager().nodeThrows(for: "warm")
    try await warm.set(1)
    var states = service.streams.state.values.makeAsyncIterator()
    let current = service.state
    #expect(await states.next() == current)
    service.isConnectionEnabled = false
    #expect(await states.next() == .disconnected)
    service.isConnectionEnabled = true
    let reconnected = await states.next()
    #expect(reconnected != nil && reconnected != .disconnected)
  }

  @Test func managerStateStopsWhenCancelled() async throws {
    let application = makeApplication()
    let manager = application.datasyncService.createManager()
    try await manager.nodeThrows(for: "warm").set(true)
    let recorder = RecordingSubscriber<DatasyncState, Never>()
    manager.streams.state.subscribe(recorder)
    #expect(await eventually { recorder.values.count == 1 })
    #expect(recorder.values == [application.datasyncService.state])
    recorder.cancel()
    application.datasyncService.isConnectionEnabled = false
    application.datasyncService.isConnectionEnabled = true
    try await manager.nodeThrows(for: "after").set(true)
    #expect(recorder.values.count == 1)
  }

  @Test func managerWrapperLooksUpNodeWrappers() throws {
    let manager = makeApplication().datasyncService.createManager()
    #expect((manager.streams / "a/b")?.path == "/a/b")
    #expect(manager.streams.node(for: "bad$key") == nil)
    #expect(throws: WebcomError.self) { try manager.streams.nodeThrows(for: "bad$key") }
    #expect(manager.streams.wrapped === manager)
  }

  @Test func revocationFailsTheStreamWithItsError() async throws {
    let database = DatasyncDatabase()
    let application = WebcomApplication(
      configuration: WebcomConfiguration(identifier: "revocation", backEnd: .embedded(database)))
    let node = try application.datasyncService.createManager().nodeThrows(for: "secret/data")
    try await node.set(["a": 1])
    var events = node.streams.events(to: .childAddition).values.makeAsyncIterator()
    #expect(try await events.next()?.key == "a")
    let denied = WebcomError(.permissionDenied, "read access to /secret revoked")
    database.revokeListens(at: try DatasyncPath(parsing: "secret"), error: denied)
    await #expect(throws: denied) { _ = try await events.next() }
  }

  @Test func revocationFailsTheChildrenStream() async throws {
    let database = DatasyncDatabase()
    let application = WebcomApplication(
      configuration: WebcomConfiguration(identifier: "revocation", backEnd: .embedded(database)))
    let node = try application.datasyncService.createManager().nodeThrows(for: "secret/list")
    try await node.set(["a": 1])
    let recorder = RecordingSubscriber<DatasyncChildren<Int>, WebcomError>()
    node.streams.children(as: Int.self).subscribe(recorder)
    #expect(await eventually { recorder.values.count == 1 })
    database.revokeListens(
      at: try DatasyncPath(parsing: "secret/list"), error: WebcomError(.permissionDenied, "no"))
    #expect(await eventually { recorder.completion != nil })
    #expect(recorder.completion == .failure(WebcomError(.permissionDenied, "no")))
  }
}
