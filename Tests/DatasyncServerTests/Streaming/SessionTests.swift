import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// The session protocol: one stream per client carrying every message of its connection, and
/// its requests POSTed with its client id.
@Suite(.timeLimit(.minutes(1))) struct SessionTests {
  private static let clientID = "client-0123456789abcdef"

  private func post(
    _ server: TestDatabaseServer, _ body: String, client: String = clientID, token: String? = nil
  ) throws -> TestResponse {
    let auth = token.map { "&auth=\($0)" } ?? ""
    return try server.request("POST", "/.session.json?client=\(client)\(auth)", body: body)
  }

  private func open(
    _ server: TestDatabaseServer, client: String = clientID, token: String? = nil
  ) throws -> TestHTTPClient {
    let auth = token.map { "&auth=\($0)" } ?? ""
    let (stream, head) = try server.openStream("/.session.json?client=\(client)\(auth)")
    try #require(head.status == 200)
    let connected = try readEvent(from: stream)
    try #require(connected.event == "connected")
    #expect(connected.data.contains(#""client":"\#(client)""#))
    return stream
  }

  @Test func aSessionCarriesListensWritesAndTheirAnswersInOrder() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/rooms/a.json", body: #"{"title": "A"}"#)
    let stream = try open(server)
    defer { stream.close() }
    let posted = try post(
      server,
      #"""
      [{"listen": "/rooms/a"}, {"id": 1, "set": "/rooms/a/title", "data": "B"},
       {"id": 2, "merge": "/rooms", "data": {"a/n": 1, "b/x": true}}, {"id": 3, "read": "/rooms/b"},
       {"id": 4, "increment": "/count", "by": 2}, {"id": 5, "set": "/rooms/a.b", "data": 1}]
      """#)
    #expect(posted.status == 400)
    let valid = try post(
      server,
      #"""
      [{"listen": "/rooms/a"}, {"id": 1, "set": "/rooms/a/title", "data": "B"},
       {"id": 2, "merge": "/rooms", "data": {"a/n": 1, "b/x": true}}, {"id": 3, "read": "/rooms/b"},
       {"id": 4, "increment": "/count", "by": 2}]
      """#)
    #expect(valid.status == 204)
    let expected: [(String, String)] = [
      ("listened", #"{"path":"/rooms/a","data":{"title":"A"}}"#),
      ("ack", #"{"id":1,"put":{"path":"/rooms/a/title","data":"B"}}"#),
      ("ack", #"{"id":2,"patch":{"path":"/rooms","data":{"a/n":1,"b/x":true}}}"#),
      ("value", #"{"id":3,"data":{"x":true}}"#),
      ("ack", #"{"id":4,"put":{"path":"/count","data":2}}"#),
    ]
    for (name, data) in expected {
      let event = try readEvent(from: stream)
      #expect(event.event == name && event.data == data)
    }
    // Another client's write reaches the session as a change at its absolute path.
    _ = try server.request("PUT", "/rooms/a/by.json", body: #""someone""#)
    let change = try readEvent(from: stream)
    #expect(change.event == "put" && change.data == #"{"path":"/rooms/a/by","data":"someone"}"#)
    _ = try post(server, #"{"unlisten": "/rooms/a"}"#)
    _ = try server.request("PUT", "/rooms/a/by.json", body: #""again""#)
    _ = try post(server, #"{"id": 6, "read": "/count"}"#)
    #expect(try readEvent(from: stream).data == #"{"id":6,"data":2}"#)
  }

  @Test func disconnectionOperationsRunWhenTheStreamDrops() throws {
    let server = try TestDatabaseServer()
    var stream = try open(server)
    _ = try post(
      server,
      #"""
      [{"id": 1, "set": "/presence/me", "data": true},
       {"id": 2, "set": "/presence/me", "data": false, "onDisconnect": "once"},
       {"id": 3, "increment": "/visits", "by": 1, "onDisconnect": "always"},
       {"id": 4, "set": "/cancelled", "data": 1, "onDisconnect": "once"},
       {"id": 5, "cancelOnDisconnect": "/cancelled"}]
      """#)
    for id in 1...5 { #expect(try readEvent(from: stream).data.hasPrefix(#"{"id":\#(id)"#)) }
    // The server registers the stream just after sending its first event: once registered, its
    // end counts only after the session ended (and its disconnection operations ran).
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    stream.close()
    #expect(server.server.waitForOpenStreams(atMost: 0))
    #expect(try server.request("GET", "/presence/me.json").bodyText == "false")
    #expect(try server.request("GET", "/visits.json").bodyText == "1")
    #expect(try server.request("GET", "/cancelled.json").bodyText == "null")
    // The same client reconnects: the operation registered for every disconnection is still
    // registered; the one-time one is gone.
    _ = try server.request("PUT", "/presence/me.json", body: "true")
    stream = try open(server)
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    stream.close()
    #expect(server.server.waitForOpenStreams(atMost: 0))
    #expect(try server.request("GET", "/visits.json").bodyText == "2")
    #expect(try server.request("GET", "/presence/me.json").bodyText == "true")
  }

  @Test func aNewStreamOfTheSameClientReplacesThePreviousOne() throws {
    let server = try TestDatabaseServer()
    let first = try open(server)
    defer { first.close() }
    _ = try post(
      server,
      #"[{"listen": "/a"}, {"id": 1, "set": "/gone", "data": true, "onDisconnect": "once"}]"#)
    _ = try readEvent(from: first)
    _ = try readEvent(from: first)
    _ = try server.request("PUT", "/gone.json", body: "false")
    let second = try open(server)
    defer { second.close() }
    // The previous stream ends and its session disconnected: its operation ran, its listen is
    // gone.
    #expect(try first.readEvent() == nil)
    #expect(try server.request("GET", "/gone.json").bodyText == "true")
    _ = try server.request("PUT", "/a.json", body: "1")
    _ = try post(server, #"{"id": 2, "read": "/a"}"#)
    #expect(try readEvent(from: second).data == #"{"id":2,"data":1}"#)
    #expect(server.server.openStreamCount == 1)
  }

  @Test func aSessionAuthenticatesAndItsRequestsMustCarryItsToken() throws {
    let server = try TestDatabaseServer(
      rules: try DatasyncRules(
        json:
          #"{"rules": {"users": {"$uid": {".read": "auth.uid == $uid", ".write": "auth.uid == $uid"}}}}"#
      ),
      tokens: [
        "ada-token": DatasyncAuthentication(uid: "ada"),
        "bob-token": DatasyncAuthentication(uid: "bob"),
      ])
    let stream = try open(server, token: "ada-token")
    defer { stream.close() }
    let auth = try readEvent(from: stream)
    #expect(
      auth.event == "auth" && auth.data.contains(#""uid":"ada""#)
        && auth.data.hasPrefix(#"{"id":0"#))
    #expect(try post(server, #"{"id": 1, "set": "/users/ada/n", "data": 1}"#).status == 403)
    #expect(
      try post(server, #"{"id": 1, "set": "/users/ada/n", "data": 1}"#, token: "bob-token").status
        == 403)
    #expect(
      try post(server, #"{"id": 1, "set": "/users/ada/n", "data": 1}"#, token: "ada-token").status
        == 204)
    #expect(try readEvent(from: stream).event == "ack")
    _ = try post(server, #"{"id": 2, "set": "/users/bob/n", "data": 1}"#, token: "ada-token")
    let rejected = try readEvent(from: stream)
    #expect(rejected.event == "reject" && rejected.data.contains("permissionDenied"))
    // Authenticating as another user switches the session's token.
    _ = try post(server, #"{"id": 3, "authenticate": "bob-token"}"#, token: "ada-token")
    #expect(try readEvent(from: stream).event == "auth")
    #expect(try post(server, #"{"id": 4, "read": "/users/bob"}"#, token: "bob-token").status == 204)
    #expect(try readEvent(from: stream).data == #"{"id":4,"data":null}"#)
    // Another identity cannot take the client's session over.
    let (intruder, head) = try server.openStream(
      "/.session.json?client=\(Self.clientID)&auth=ada-token")
    defer { intruder.close() }
    #expect(head.status == 403)
    let unknown = try server.request(
      "GET", "/.session.json?client=other-client-0123456&auth=nope",
      headers: ["Accept": "text/event-stream"])
    #expect(unknown.status == 401)
    // A revoked token ends the session's authentication, not the session.
    try server.server.database().setAuthentication(nil, forToken: "bob-token")
    let change = try readEvent(from: stream)
    #expect(change.event == "auth-change" && change.data == #"{"auth":null}"#)
    #expect(try post(server, #"{"id": 5, "read": "/users"}"#).status == 204)
  }

  @Test func theLongestIdleClientIsForgottenBeyondTheBound() throws {
    let server = try TestDatabaseServer { $0.maximumIdleSessionClients = 1 }
    let first = "first-client-0123456"
    let second = "second-client-012345"
    var stream = try open(server, client: first)
    _ = try post(
      server, #"{"id": 1, "increment": "/runs", "by": 1, "onDisconnect": "always"}"#, client: first)
    _ = try readEvent(from: stream)
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    stream.close()
    #expect(server.server.waitForOpenStreams(atMost: 0))
    #expect(try server.request("GET", "/runs.json").bodyText == "1")
    // A second idle client pushes the first out: its operation is cancelled without running.
    stream = try open(server, client: second)
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    stream.close()
    #expect(server.server.waitForOpenStreams(atMost: 0))
    stream = try open(server, client: first)
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    stream.close()
    #expect(server.server.waitForOpenStreams(atMost: 0))
    _ = try server.request("PUT", "/marker.json", body: "1")
    #expect(try server.request("GET", "/runs.json").bodyText == "1")
  }

  @Test func badSessionRequestsAreRefused() throws {
    let server = try TestDatabaseServer()
    #expect(try post(server, #"{"listen": "/a"}"#).status == 404)
    #expect(try post(server, #"{"listen": "/a"}"#, client: "short").status == 400)
    #expect(
      try post(server, #"{"listen": "/a"}"#, client: String(repeating: "x", count: 20) + "%21")
        .status == 400)
    #expect(try server.request("GET", "/.session.json?client=\(Self.clientID)").status == 400)
    #expect(
      try server.request("PUT", "/.session.json?client=\(Self.clientID)", body: "1").status == 405)
    let stream = try open(server)
    defer { stream.close() }
    for body in ["", "[", #"{"id": 1}"#, #"{"id": 1, "set": "/a"}"#, #"[{"listen": "/a"}, 3]"#] {
      let response = try post(server, body)
      #expect(response.status == 400, "\(body)")
      #expect(response.errorMessage != nil)
    }
  }
}
