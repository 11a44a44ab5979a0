import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// The application's token on every request and stream of the remote back end, and the identity
/// it stands for, told by the server's session extension.
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
    #expect(
      refused?.message.contains("the token is unknown or was revoked") == true,
      "\(refused?.message ?? "")")

    let denied = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("users/alice/name").set("Alice", queue: queue, then: then)
      }
    }
    #expect(denied?.code == .permissionDenied)

    let identity = try authenticate(alice, "alice-token")
    #expect(identity == DatasyncAuthentication(uid: "alice"))
    #expect(alice.application.authenticationService.state.authentication == identity)
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

  @Test func aServiceWithoutSessionsGivesTheTokensStandInIdentity() throws {
    let service = try RemoteMissingSessionTests.ServiceWithoutSessions(sessionAnswer: "404")
    let client = RemoteClient(url: URL(string: "http://127.0.0.1:\(service.http.port)")!)
    let identity = try authenticate(client, "some-token")
    #expect(identity == RemoteConnection.tokenIdentity(for: "some-token"))
    #expect(identity != RemoteConnection.tokenIdentity(for: "other-token"))
    #expect(service.sessionRequests.all == ["GET /.session.json"])
  }

  @Test func disconnectionOperationsRunAsTheIdentityOfTheLatestTokenOrSignOut() throws {
    let server = try server()
    let alice = RemoteClient("alice", server: server)
    // Registered unauthenticated (the session opens without credential), then as alice.
    try alice.wait { queue, then in
      try! alice.node("users").cancelDisconnectionOperations(queue: queue, then: then)
    }
    let online = try alice.node("users/alice/online")
    #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        online.set(false, at: .onDisconnection, queue: queue, then: then)
      }
    }
    try authenticate(alice, "alice-token")
    try alice.wait { queue, then in
      online.set(false, at: .onDisconnection, queue: queue, then: then)
    }
    // Signed out, the session no longer stands for alice.
    try alice.wait { queue, then in
      alice.application.authenticationService.signOut(queue: queue, then: then)
    }
    let refused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("users/alice/away").set(
          true, at: .onDisconnection, queue: queue, then: then)
      }
    }
    #expect(refused?.code == .permissionDenied)
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    alice.application.datasyncService.isConnectionEnabled = false
    #expect(server.server.waitForOpenStreams(atMost: 0))
    let database = try server.server.database()
    #expect(database.value(at: try DatasyncPath(parsing: "users/alice/online")) == .bool(false))
    #expect(database.value(at: try DatasyncPath(parsing: "users/alice/away")) == .null)
  }

  @Test func theServersChangesOfTheTokensIdentityReachTheClientWithoutAnyListen() throws {
    let server = try server()
    let alice = RemoteClient("alice", server: server)
    let states = Recorder<AuthenticationState>()
    let observation = alice.application.authenticationService.observeState(
      queue: DispatchQueue(label: "test.authentication"), onChange: states.append)
    defer { observation.cancel() }
    try authenticate(alice, "alice-token")
    let database = try server.server.database()
    let promoted = DatasyncAuthentication(uid: "alice", provider: "password")
    database.setAuthentication(promoted, forToken: "alice-token")
    database.setAuthentication(nil, forToken: "alice-token")
    #expect(
      states.wait(for: 4) == [
        .unauthenticated, .authenticated(DatasyncAuthentication(uid: "alice")),
        .authenticated(promoted), .unauthenticated,
      ])
  }
}
