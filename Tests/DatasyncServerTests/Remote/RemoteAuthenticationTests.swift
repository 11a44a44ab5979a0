import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// The application's token on every request and stream of the remote back end.
@Suite(.timeLimit(.minutes(1))) struct RemoteAuthenticationTests {
  private static let rules = #"""
    {
      "rules": {
        "users": {
          "$uid": {
            ".read": "auth != null && auth.uid == $uid",
            ".write": "auth != null && auth.uid == $uid"
          }
        }
      }
    }
    """#

  private func server() throws -> TestDatabaseServer {
    try TestDatabaseServer(
      rules: try DatasyncRules(json: Self.rules),
      tokens: ["alice-token": DatasyncAuthentication(uid: "alice")])
  }

  @discardableResult
  private func authenticate(_ client: RemoteClient, _ token: String) throws
    -> DatasyncAuthentication
  {
    try client.wait { queue, then in
      client.application.authenticationService.authenticate(
        withToken: token, queue: queue, then: then)
    }
  }

  @Test func anUnknownTokenIsRefusedAndAKnownOneOpensWhatItMayRead() throws {
    let server = try server()
    let alice = RemoteClient("alice", server: server)
    let refused = #expect(throws: WebcomError.self) { try authenticate(alice, "forged") }
    #expect(refused?.code == .permissionDenied)
    #expect(refused?.message.contains("refused the token") == true, "\(refused?.message ?? "")")

    let denied = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("users/alice/name").set("Alice", queue: queue, then: then)
      }
    }
    #expect(denied?.code == .permissionDenied)

    let identity = try authenticate(alice, "alice-token")
    #expect(identity == RemoteConnection.tokenIdentity(for: "alice-token"))
    #expect(identity != RemoteConnection.tokenIdentity(for: "forged"))
    try alice.wait { queue, then in
      try! alice.node("users/alice/name").set("Alice", queue: queue, then: then)
    }
    let stored = try server.request("GET", "/users/alice/name.json?auth=alice-token").bodyText
    #expect(stored == #""Alice""#)
  }

  @Test func streamsStartAgainWithTheTokenOnceAuthenticated() throws {
    let server = try server()
    try #require(
      server.request("PUT", "/users/alice.json?auth=owner", body: #"{"name":"Alice"}"#).status
        == 200)
    let alice = RemoteClient("alice", server: server)
    let values = Recorder<String>()
    let completions = Recorder<DatasyncSubscriptionCompletion>()
    try alice.node("users").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.values"),
      onEvent: { values.append($0.value.json) }, onCompletion: completions.append)
    // Unauthenticated, the listen of /users is refused.
    #expect(completions.wait(for: 1).first?.error?.code == .permissionDenied)

    let mine = Recorder<String>()
    try authenticate(alice, "alice-token")
    try alice.node("users/alice").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.mine"),
      onEvent: { mine.append($0.value.json) })
    #expect(mine.wait(for: 1) == [#"{"name":"Alice"}"#])
    #expect(values.all.isEmpty)
  }

  @Test func signingOutStartsTheStreamsAgainWithoutTheToken() throws {
    let server = try server()
    let alice = RemoteClient("alice", server: server)
    try authenticate(alice, "alice-token")
    let completions = Recorder<DatasyncSubscriptionCompletion>()
    let values = Recorder<String>()
    try alice.node("users/alice").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.values"),
      onEvent: { values.append($0.value.json) }, onCompletion: completions.append)
    #expect(values.wait(for: 1) == ["null"])
    try alice.wait { queue, then in
      alice.application.authenticationService.signOut(queue: queue, then: then)
    }
    #expect(completions.wait(for: 1).first?.error?.code == .permissionDenied)
  }
}
