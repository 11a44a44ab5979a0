import Foundation
import Testing

@testable import Datasync

/// Reading what the rules do not grant, through the public node API: listens are revoked with
/// `permissionDenied`, reads fail, and listens lose their data when the rules, the token or the
/// client's authentication change.
@Suite struct ReadAccessEnforcementTests {
  let queue = DispatchQueue(label: "test.read-access")

  /// Subscribes to the value of a node and waits until the back end has answered the listen
  /// (with the data or a revocation) and the answer has been delivered.
  private func watch(_ node: DatasyncNode, of client: TestClient) throws -> EventRecorder {
    let recorder = EventRecorder()
    node.subscribe(
      to: .valueChange, queue: queue, onEvent: recorder.record, onCompletion: recorder.complete)
    try roundTrip(client)
    return recorder
  }

  /// Waits for the answer to a read of a location nobody listens to (readable or not): the
  /// back end has handled the client's earlier requests and the client the earlier answers,
  /// whose events are delivered once `queue` is drained.
  private func roundTrip(_ client: TestClient) throws {
    let barrier = try client.node("barrier")
    _ = try? waitForResult { barrier.value(queue: $0, then: $1) }
    queue.sync {}
  }

  /// Expects the subscription to have ended as revoked with `permissionDenied` naming `path`.
  private func expectRevoked(
    _ recorder: EventRecorder, naming path: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(recorder.waitForCompletions(1), sourceLocation: sourceLocation)
    queue.sync {}
    guard case .revoked(let error)? = recorder.recordedCompletions.first else {
      Issue.record(
        "not revoked: \(recorder.recordedCompletions)", sourceLocation: sourceLocation)
      return
    }
    #expect(error.code == .permissionDenied, sourceLocation: sourceLocation)
    #expect(error.message.contains("\"\(path)\""), "\(error)", sourceLocation: sourceLocation)
  }

  @Test func anotherUsersRecordCanNeitherBeListenedToNorRead() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    let bobsRecord = try alice.node("users/bob")
    let stolen = try watch(bobsRecord, of: alice)
    expectRevoked(stolen, naming: "/users/bob")
    #expect(stolen.recorded.isEmpty)
    expectDenied({ bobsRecord.value(queue: $0, then: $1) }, naming: "/users/bob")
    let bobsName = try alice.node("users/bob/name")
    expectDenied({ bobsName.value(queue: $0, then: $1) }, naming: "/users/bob/name")
    #expect(bobsRecord.cachedValue.isNull)
    let own = try watch(alice.node("users/alice"), of: alice)
    #expect(own.recorded.first?.value.asDictionary()?["name"]?.asString == "Alice")
    #expect(own.recordedCompletions.isEmpty)
  }

  @Test func aParentWhoseChildrenAloneAreReadableIsNotReadable() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    let users = try alice.node("users")
    expectRevoked(try watch(users, of: alice), naming: "/users")
    expectDenied({ users.value(queue: $0, then: $1) }, naming: "/users")
    let root = try alice.node("/")
    expectDenied({ root.value(queue: $0, then: $1) }, naming: "/")
    // Alone, her own record is still hers to read.
    let own = try watch(alice.node("users/alice"), of: alice)
    #expect(own.recorded.count == 1 && own.recordedCompletions.isEmpty)
  }

  @Test func anUnauthenticatedClientReadsOnlyWhatIsPublic() throws {
    let database = try AccessFixture.database()
    let visitor = TestClient("visitor", database: database)
    let document = try visitor.node("public/doc")
    #expect(try waitForResult { document.value(queue: $0, then: $1) }.asString == "hello")
    expectRevoked(try watch(visitor.node("rooms/general"), of: visitor), naming: "/rooms/general")
    expectRevoked(try watch(visitor.node("users/alice"), of: visitor), naming: "/users/alice")
  }

  @Test func anUnknownTokenIsRefusedAndLeavesTheIdentityAsItWas() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    #expect(try alice.authenticate("alice-token") == AccessFixture.alice)
    do {
      try alice.authenticate("forged-token")
      Issue.record("a forged token should be refused")
    } catch let error as WebcomError {
      #expect(error.code == .permissionDenied)
      #expect(!error.message.contains("forged-token"), "the token is a secret: \(error)")
    }
    #expect(alice.connection.authentication == AccessFixture.alice)
    let own = try watch(alice.node("users/alice"), of: alice)
    #expect(own.recorded.count == 1 && own.recordedCompletions.isEmpty)
  }

  @Test func aTokenRevokedWhileListeningEndsWhatItAloneGranted() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    let own = try watch(alice.node("users/alice"), of: alice)
    let document = try watch(alice.node("public/doc"), of: alice)
    let general = try watch(alice.node("rooms/general"), of: alice)
    database.setAuthentication(nil, forToken: "alice-token")
    expectRevoked(own, naming: "/users/alice")
    expectRevoked(general, naming: "/rooms/general")
    #expect(try alice.node("users/alice").cachedValue.isNull)
    #expect(alice.connection.authentication == nil)
    // What everyone may read keeps flowing.
    let bob = TestClient("bob", database: database)
    try bob.authenticate("bob-token")
    let bobsView = try bob.node("public/doc")
    try waitForResult { bobsView.set("updated", queue: $0, then: $1) }
    #expect(document.wait { $0.last?.value.asString == "updated" })
    #expect(document.recordedCompletions.isEmpty)
    // A revoked token authenticates nobody.
    #expect(throws: WebcomError.self) { try alice.authenticate("alice-token") }
  }

  @Test func aTokenGivenAnotherIdentityLosesTheFormerIdentitysRecord() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    let own = try watch(alice.node("users/alice"), of: alice)
    let general = try watch(alice.node("rooms/general"), of: alice)
    database.setAuthentication(AccessFixture.bob, forToken: "alice-token")
    expectRevoked(own, naming: "/users/alice")
    // Rooms are read by any authenticated user: that listen stays.
    try roundTrip(alice)
    #expect(general.recordedCompletions.isEmpty)
    #expect(alice.connection.authentication == AccessFixture.bob)
    let bobs = try watch(alice.node("users/bob"), of: alice)
    #expect(bobs.recorded.first?.value.asDictionary()?["name"]?.asString == "Bob")
  }

  @Test func rulesTightenedWhileListeningRevokeWhatTheyNoLongerGrant() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    let document = try watch(alice.node("public/doc"), of: alice)
    let own = try watch(alice.node("users/alice"), of: alice)
    database.rules = try AccessFixture.rules(public: #"{".read": "auth.uid == 'admin'"}"#)
    expectRevoked(document, naming: "/public/doc")
    // Her own record is still granted: it keeps receiving her writes.
    let score = try alice.node("users/alice/score")
    try waitForResult { score.set(11, queue: $0, then: $1) }
    #expect(own.wait { $0.last?.value.asDictionary()?["score"]?.asInt == 11 })
    #expect(own.recordedCompletions.isEmpty)
    database.rules = .open
    let reopened = try watch(alice.node("public/doc"), of: alice)
    #expect(reopened.recorded.first?.value.asString == "hello")
  }

  @Test func signingOutEndsTheListensThatNeededTheIdentity() throws {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    let own = try watch(alice.node("users/alice"), of: alice)
    let presence = try watch(alice.node("presence/bob"), of: alice)
    try alice.signOut()
    expectRevoked(own, naming: "/users/alice")
    #expect(alice.connection.authentication == nil)
    try roundTrip(alice)
    #expect(presence.recordedCompletions.isEmpty)
  }

  @Test func theAdministratorReadsEverything() throws {
    let database = try AccessFixture.database()
    let admin = TestClient("admin", database: database)
    #expect(try admin.authenticate("admin-token").isAdmin)
    let everything = try watch(admin.node("/"), of: admin)
    #expect(everything.recordedCompletions.isEmpty)
    #expect(everything.recorded.first?.value.asDictionary()?["votes"]?.asInt == 5)
  }
}
