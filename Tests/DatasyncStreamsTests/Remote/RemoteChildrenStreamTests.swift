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
  @Test func aChildrenStreamStaysOpenAcrossAReconnectionAndResynchronises() async throws {
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.rules = .open
    let server = try DatabaseServer(configuration: configuration)
    defer { server.stop() }
    let url = URL(string: "http://127.0.0.1:\(server.port)")!
    let options = RemoteOptions(
      requestTimeout: 5, idleTimeout: 5,
      reconnection: RemoteReconnectionPolicy(initialDelay: 0.3, maximumDelay: 0.3, jitter: 0))
    func node(_ name: String) throws -> DatasyncNode {
      let application = WebcomApplication(
        configuration: WebcomConfiguration(
          identifier: name, backEnd: .remote(url: url, options: options)))
      return try #require(application.datasyncService.createManager().node(for: "list"))
    }
    let alice = try node("alice")
    let bob = try node("bob")
    let recorder = RecordingSubscriber<DatasyncChildren<Int>, WebcomError>()
    alice.streams.children(as: Int.self).subscribe(recorder)
    for key in ["a", "b", "c"] { try await bob.relativeNodeThrows(for: key).set(1) }
    #expect(await eventually { recorder.values.last?.count == 3 })

    server.closeStreams()
    try await bob.relativeNodeThrows(for: "a").clear()
    try await bob.relativeNodeThrows(for: "b").set(2)
    try await bob.relativeNodeThrows(for: "d").set(1)

    #expect(
      await eventually {
        recorder.values.last.map { children in
          children.keys.map(\.value) == ["b", "c", "d"] && children.map(\.value) == [2, 1, 1]
        } ?? false
      })
    #expect(recorder.completion == nil)
    #expect(recorder.values.allSatisfy { Set($0.keys).count == $0.count })
    #expect(recorder.values.filter(\.changes.isInitialLoad).count == 1)
    recorder.cancel()
  }
}
