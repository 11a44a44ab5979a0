import Foundation
import Testing

@testable import Datasync

@Suite struct SessionProtocolTests {
  private func path(_ text: String) -> DatasyncPath {
    DatasyncPath(validatedKeys: text.split(separator: "/").map { WebcomKey(String($0)) })
  }

  @Test func everyRequestSurvivesTheRoundTrip() throws {
    let entries = try JSONValue.parsingMergeBody(
      Array(#"{"a/b": 1, "c": null, "d": {"e": [true]}}"#.utf8))
    let requests: [ClientRequest] = [
      .listen(path("rooms/a")), .unlisten(.root), .read(1, path("x")),
      .write(2, .set(path("a/b"), try jsonValue(#"{"t": {".sv": "timestamp"}, "n": 1.5}"#))),
      .write(3, .set(path("a"), .null)), .write(4, .merge(path("rooms"), entries)),
      .write(5, .increment(path("count"), start: 0, step: -2.5)),
      .write(6, .compareAndSet(path("c"), expected: .int(1), value: .string("two"))),
      .writeOnDisconnection(7, .set(path("presence/me"), .bool(false)), repeating: false),
      .writeOnDisconnection(8, .merge(path("p"), entries), repeating: true),
      .cancelDisconnectionWrites(9, path("presence")), .authenticate(10, token: "tok\"en"),
      .signOut(11),
    ]
    // Encoding is deterministic: a request that decodes to what encodes the same lost nothing.
    let body = SessionProtocol.body(of: requests)
    let decoded = try SessionProtocol.requests(fromBody: body)
    #expect(decoded.count == requests.count)
    #expect(SessionProtocol.body(of: decoded) == body)
    guard case .write(2, .set(let setPath, let value)) = decoded[3] else {
      Issue.record("the set did not decode as a set")
      return
    }
    #expect(setPath == path("a/b") && value["n"] == .double(1.5) && value["t"].isServerTimestamp)
    let single = try SessionProtocol.requests(fromBody: Array(#" {"id": 1, "read": "/x"} "#.utf8))
    #expect(SessionProtocol.body(of: single) == SessionProtocol.body(of: [.read(1, path("x"))]))
  }

  @Test func invalidRequestsAreRefusedNamingThePosition() {
    let cases: [(String, String)] = [
      (#"[{"listen": "/a"}, {"id": 1, "set": "/b"}]"#, "request 1"),
      (#"{"id": 1, "set": "/a.b", "data": 1}"#, "a.b"),
      (#"{"id": -1, "read": "/a"}"#, "id"),
      (#"{"read": "/a"}"#, "id"),
      (#"{"id": 1, "merge": "/a", "data": {"x": 1, "x/y": 2}}"#, "overlap"),
      (#"{"id": 1, "increment": "/a", "by": "2"}"#, "by"),
      (#"{"id": 1, "set": "/a", "data": 1, "onDisconnect": "later"}"#, "onDisconnect"),
      (#"{"id": 1, "launch": "/a"}"#, "unknown request"),
      ("[1, 2]", "request 0"),
      ("{", "malformed"),
    ]
    for (text, culprit) in cases {
      do {
        _ = try SessionProtocol.requests(fromBody: Array(text.utf8))
        Issue.record("\(text) was accepted")
      } catch {
        #expect(error.message.contains(culprit), "\(text): \(error.message)")
      }
    }
  }

  @Test func everyMessageSurvivesTheRoundTrip() throws {
    let entries = try JSONValue.parsingMergeBody(Array(#"{"a/b": 1, "c": null}"#.utf8))
    let auth = DatasyncAuthentication(
      uid: "ada", provider: "password", claims: ["admin": DatasyncValue(.bool(false))])
    let messages: [BackEndMessage] = [
      .listenData(path("a"), try jsonValue(#"{"x": [1, 2]}"#)), .listenData(.root, .null),
      .changed(.set(path("a/b"), .string("v"))), .changed(.merge(path("a"), entries)),
      .acknowledged(1, announced: nil), .acknowledged(2, announced: .set(path("n"), .int(3))),
      .acknowledged(3, announced: .merge(path("m"), entries)),
      .rejected(4, WebcomError(.permissionDenied, "denied at \"/a\""), current: nil),
      .rejected(5, WebcomError(.transactionAborted, "changed"), current: .null),
      .rejected(6, WebcomError(.invalidValue, "bad"), current: .int(7)),
      .value(7, try jsonValue(#"{"k": "v"}"#)),
      .revoked(path("a"), WebcomError(.permissionDenied, "no")),
      .authenticated(8, auth), .authenticated(9, .admin), .authenticationChanged(auth),
      .authenticationChanged(nil),
    ]
    for message in messages {
      let event = try #require(SessionProtocol.event(for: message, client: "c"))
      let decoded = try #require(try SessionProtocol.message(from: event))
      #expect(SessionProtocol.event(for: decoded, client: "c") == event)
    }
    let rejected = try SessionProtocol.message(
      from: #require(SessionProtocol.event(for: messages[8], client: "c")))
    guard case .rejected(5, let error, let current)? = rejected else {
      Issue.record("not a rejection")
      return
    }
    #expect(error.code == .transactionAborted && current == .null)
    #expect(SessionProtocol.event(for: .disconnected, client: "c") == nil)
    #expect(try SessionProtocol.message(from: .keepAlive) == nil)
  }

  @Test func connectedCarriesTheBackEndsClock() throws {
    let now = Date(timeIntervalSince1970: 1_000)
    let event = try #require(
      SessionProtocol.event(for: .connected(clockOffset: 2.5), client: "client-1", now: now))
    #expect(event.name == "connected")
    #expect(event.data == #"{"client":"client-1","timestamp":1002500}"#)
    guard case .connected(let offset)? = try SessionProtocol.message(from: event, now: now) else {
      Issue.record("not a connected message")
      return
    }
    #expect(abs(offset - 2.5) < 0.001)
  }

  @Test func invalidEventsAreRefusedNamingThem() {
    for event in [
      HostedEvent(name: "put", data: #"{"path": "/a"}"#), HostedEvent(name: "teleport", data: "{}"),
      HostedEvent(name: "reject", data: #"{"id": 1, "error": {"code": "oops", "message": "x"}}"#),
      HostedEvent(name: "ack", data: "[1]"),
      HostedEvent(name: "auth-change", data: #"{"auth": 3}"#),
    ] {
      #expect(throws: WebcomError.self, "\(event)") { try SessionProtocol.message(from: event) }
    }
  }
}
