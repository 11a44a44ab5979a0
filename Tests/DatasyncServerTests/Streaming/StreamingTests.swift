import DatasyncServer
import Foundation
import Testing

@testable import Datasync

@Suite(.timeLimit(.minutes(2))) struct StreamingTests {
  @Test func aStreamSendsTheValueThenEachChangeRelativeToItsLocation() throws {
    let server = try TestDatabaseServer()
    _ = try server.request(
      "PUT", "/rooms/a.json", body: #"{"title": "A", "messages": {"m1": "hi"}}"#)
    let (client, head) = try server.openStream("/rooms/a.json")
    defer { client.close() }
    #expect(head.status == 200 && head.header("Content-Type") == "text/event-stream")
    let first = try readEvent(from: client)
    #expect(first.event == "put")
    #expect(first.data == #"{"path":"/","data":{"messages":{"m1":"hi"},"title":"A"}}"#)
    _ = try server.request("PUT", "/rooms/a/messages/m2.json", body: #""hello""#)
    #expect(try readEvent(from: client).data == #"{"path":"/messages/m2","data":"hello"}"#)
    _ = try server.request("PATCH", "/rooms/a.json", body: #"{"title": "B", "messages/m1": null}"#)
    let patch = try readEvent(from: client)
    #expect(patch.event == "patch")
    #expect(patch.data == #"{"path":"/","data":{"messages/m1":null,"title":"B"}}"#)
    // Writes elsewhere are not sent; a write above the location is sent as its new value.
    _ = try server.request("PUT", "/rooms/b.json", body: "1")
    _ = try server.request("PATCH", "/rooms.json", body: #"{"a/title": "C", "b": 2}"#)
    #expect(try readEvent(from: client).data == #"{"path":"/","data":{"title":"C"}}"#)
    _ = try server.request("PUT", "/.json", body: #"{"rooms": {"a": {"title": "D"}}}"#)
    let replaced = try readEvent(from: client)
    #expect(replaced.event == "put" && replaced.data == #"{"path":"/","data":{"title":"D"}}"#)
    _ = try server.request("DELETE", "/rooms.json")
    #expect(try readEvent(from: client).data == #"{"path":"/","data":null}"#)
  }

  @Test func aShallowStreamStartsWithTheFirstLevelThenSendsChangesAsWritten() throws {
    let server = try TestDatabaseServer()
    _ = try server.request(
      "PUT", "/rooms/a.json", body: #"{"title": "A", "messages": {"m1": {"text": "hi"}}}"#)
    let (client, head) = try server.openStream("/rooms/a.json?shallow=true")
    defer { client.close() }
    #expect(head.status == 200)
    #expect(
      try readEvent(from: client).data == #"{"path":"/","data":{"messages":true,"title":"A"}}"#)
    _ = try server.request("PUT", "/rooms/a/messages/m2.json", body: #"{"text": "hello"}"#)
    #expect(
      try readEvent(from: client).data == #"{"path":"/messages/m2","data":{"text":"hello"}}"#)
    _ = try server.request("PUT", "/rooms/a.json", body: #"{"messages": {"m3": {"text": "x"}}}"#)
    #expect(
      try readEvent(from: client).data == #"{"path":"/","data":{"messages":{"m3":{"text":"x"}}}}"#)
  }

  @Test func keepAlivesArriveWhileIdle() throws {
    let server = try TestDatabaseServer { $0.keepAliveInterval = .milliseconds(50) }
    let (client, _) = try server.openStream("/quiet.json")
    defer { client.close() }
    #expect(try readEvent(from: client).data == #"{"path":"/","data":null}"#)
    let keepAlive = try readEvent(from: client) { $0.event == "keep-alive" }
    #expect(keepAlive.data == "null")
  }

  @Test func aStreamDeniedAtTheStartIsRefusedWithAStatus() throws {
    let server = try TestDatabaseServer(
      rules: .authenticated, tokens: ["t": DatasyncAuthentication(uid: "u")])
    let denied = try server.request("GET", "/a.json", headers: ["Accept": "text/event-stream"])
    #expect(denied.status == 403)
    let unknown = try server.request(
      "GET", "/a.json?auth=x", headers: ["Accept": "text/event-stream"])
    #expect(unknown.status == 401)
    let query = try server.request(
      "GET", #"/a.json?auth=t&orderBy="$key""#, headers: ["Accept": "text/event-stream"])
    #expect(query.status == 400)
    let (client, head) = try server.openStream("/a.json?auth=t")
    defer { client.close() }
    #expect(head.status == 200)
  }

  @Test func losingReadAccessCancelsTheStream() throws {
    let server = try TestDatabaseServer(
      rules: try DatasyncRules(json: #"{"rules": {"open": {".read": true}}}"#))
    let (client, _) = try server.openStream("/open/x.json")
    defer { client.close() }
    _ = try readEvent(from: client)
    try server.server.database().rules = try DatasyncRules(json: #"{"rules": {}}"#)
    let cancel = try readEvent(from: client) { $0.event == "cancel" }
    #expect(cancel.data.contains("denied"))
    #expect(try client.readEvent() == nil)
    #expect(client.streamEndedCleanly)
  }

  @Test func aRevokedTokenEndsTheStreamWithAuthRevoked() throws {
    let server = try TestDatabaseServer(
      rules: .authenticated, tokens: ["t": DatasyncAuthentication(uid: "u")])
    let (client, _) = try server.openStream("/a.json", headers: ["Authorization": "Bearer t"])
    defer { client.close() }
    _ = try readEvent(from: client)
    try server.server.database().setAuthentication(nil, forToken: "t")
    let revoked = try readEvent(from: client) { $0.event == "auth_revoked" }
    #expect(revoked.data == "credential is no longer valid")
    #expect(try client.readEvent() == nil)
  }

  @Test func aReaderThatNeverReadsIsClosedAndOthersKeepFlowing() throws {
    let server = try TestDatabaseServer { $0.http.eventStreamQueueLimit = 256 << 10 }
    let (stuck, _) = try server.openStream("/feed.json")
    defer { stuck.close() }
    let (reader, _) = try server.openStream("/feed.json")
    defer { reader.close() }
    _ = try readEvent(from: reader)
    // Large values (each well below the queue's limit): the kernel buffers of the stuck
    // connection fill, then its queue.
    let value = "\"" + String(repeating: "x", count: 30_000) + "\""
    let writer = try TestHTTPClient(port: server.port)
    defer { writer.close() }
    let deadline = Date(timeIntervalSinceNow: 30)
    var written = 0
    while server.server.openStreamCount > 1 && Date() < deadline {
      written += 1
      _ = try server.request("PUT", "/feed/v\(written % 20).json?print=silent", body: value)
      let event = try readEvent(from: reader)
      #expect(event.data.hasPrefix(#"{"path":"/v\#(written % 20)""#))
    }
    #expect(server.server.openStreamCount == 1)
    // The reader still gets every change.
    _ = try server.request("PUT", "/feed/last.json", body: "1")
    #expect(try readEvent(from: reader).data == #"{"path":"/last","data":1}"#)
  }

  @Test func stoppingTheServerEndsEveryStream() throws {
    let server = try TestDatabaseServer()
    let (client, _) = try server.openStream("/a.json")
    defer { client.close() }
    _ = try readEvent(from: client)
    server.server.stop()
    #expect(try client.readEvent() == nil)
    #expect(client.streamEndedCleanly)
    #expect(server.server.openStreamCount == 0)
  }

  @Test func requestsAndEventsAreServedWithAThousandIdleStreamsOpen() throws {
    let server = try TestDatabaseServer()
    var clients: [TestHTTPClient] = []
    defer { for client in clients { client.close() } }
    for index in 0..<1_000 {
      let (client, head) = try server.openStream("/idle/s\(index % 10).json")
      try #require(head.status == 200)
      clients.append(client)
    }
    for index in 0..<20 {
      #expect(try server.request("PUT", "/other/\(index).json", body: "1").status == 200)
    }
    #expect(server.server.openStreamCount == 1_000)
    _ = try server.request("PUT", "/idle/s3.json", body: "2")
    for client in clients.indices where client % 10 == 3 {
      #expect(
        try readEvent(from: clients[client]) { $0.data.contains("2") }.data
          == #"{"path":"/","data":2}"#)
    }
  }
}
