import Datasync
import DatasyncServer
import DatasyncStreams
import Foundation
import Streams
import StreamsTesting
import Testing

/// `children(as:)` over the remote back end: the stream stays open across a cut connection and
/// ends with the server's children, each key once.
@Suite(.timeLimit(.minutes(1))) struct RemoteChildrenStreamTests {
  /// The node `/list` of a new remote client of the server at `port`.
  private static func list(
    of name: String, port: Int, reconnectionDelay: TimeInterval
  ) throws -> DatasyncNode {
    let options = RemoteOptions(
      requestTimeout: 5, idleTimeout: 5,
      reconnection: RemoteReconnectionPolicy(
        initialDelay: reconnectionDelay, maximumDelay: reconnectionDelay, jitter: 0))
    let application = WebcomApplication(
      configuration: WebcomConfiguration(
        identifier: name,
        backEnd: .remote(url: URL(string: "http://127.0.0.1:\(port)")!, options: options)))
    return try #require(application.datasyncService.createManager().node(for: "list"))
  }

  /// Expects the children a recorder saw last to be `expected` (keys and values, in order), each
  /// emission to hold each key once, and a single initial load.
  private static func expectConverged(
    _ recorder: RecordingSubscriber<DatasyncChildren<Int>, WebcomError>,
    to expected: KeyValuePairs<String, Int>
  ) async {
    #expect(
      await eventually {
        recorder.values.last.map { children in
          children.keys.map(\.value) == expected.map(\.key)
            && children.map(\.value) == expected.map(\.value)
        } ?? false
      })
    #expect(recorder.completion == nil)
    #expect(recorder.values.allSatisfy { Set($0.keys).count == $0.count })
    #expect(recorder.values.filter(\.changes.isInitialLoad).count == 1)
  }
  @Test func aChildrenStreamStaysOpenAcrossAReconnectionAndResynchronises() async throws {
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.rules = .open
    let server = try DatabaseServer(configuration: configuration)
    defer { server.stop() }
    let alice = try Self.list(of: "alice", port: server.port, reconnectionDelay: 0.3)
    let bob = try Self.list(of: "bob", port: server.port, reconnectionDelay: 0.3)
    let recorder = RecordingSubscriber<DatasyncChildren<Int>, WebcomError>()
    alice.streams.children(as: Int.self).subscribe(recorder)
    for key in ["a", "b", "c"] { try await bob.relativeNodeThrows(for: key).set(1) }
    #expect(await eventually { recorder.values.last?.count == 3 })

    server.closeStreams()
    try await bob.relativeNodeThrows(for: "a").clear()
    try await bob.relativeNodeThrows(for: "b").set(2)
    try await bob.relativeNodeThrows(for: "d").set(1)

    await Self.expectConverged(recorder, to: ["b": 2, "c": 1, "d": 1])
    recorder.cancel()
  }

  @Test func childrenStreamsOfTwoClientsFollowAServerKilledAndRestarted() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "remote-children-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.rules = .open
    configuration.dataPath = directory.appendingPathComponent("data.sqlite").path
    let first = try DatabaseServer(configuration: configuration)
    configuration.http.port = first.port
    let alice = try Self.list(of: "alice", port: first.port, reconnectionDelay: 0.05)
    let bob = try Self.list(of: "bob", port: first.port, reconnectionDelay: 0.05)
    let recorders = [alice, bob].map { client in
      let recorder = RecordingSubscriber<DatasyncChildren<Int>, WebcomError>()
      client.streams.children(as: Int.self).subscribe(recorder)
      return recorder
    }
    for key in ["a", "b", "c"] { try await bob.relativeNodeThrows(for: key).set(1) }
    for recorder in recorders {
      #expect(await eventually { recorder.values.last?.count == 3 })
    }

    first.stop()
    // Made while the server is down: applied locally at once, sent once it is back.
    let removal = Task { try await alice.relativeNodeThrows(for: "a").clear() }
    let addition = Task { try await alice.relativeNodeThrows(for: "d").set(4) }
    let second = try DatabaseServer(configuration: configuration)
    defer { second.stop() }
    try await removal.value
    try await addition.value

    for recorder in recorders {
      await Self.expectConverged(recorder, to: ["b": 1, "c": 1, "d": 4])
      recorder.cancel()
    }
    // The writes acknowledged before the restart are still there, with those made meanwhile.
    let carol = try Self.list(of: "carol", port: first.port, reconnectionDelay: 0.05)
    let stored = try await carol.decodedValue(as: [String: Int].self)
    #expect(stored == ["b": 1, "c": 1, "d": 4])
  }
}
