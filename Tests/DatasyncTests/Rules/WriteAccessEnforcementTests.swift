import Foundation
import Testing

@testable import Datasync

/// Writing around the rules, through every write kind of the public node API: a denied write
/// applies nothing, its callback gets `permissionDenied` naming the path, and the writer's local
/// events are reverted.
@Suite struct WriteAccessEnforcementTests {
  let queue = DispatchQueue(label: "test.write-access")

  private func stored(_ database: DatasyncDatabase, _ path: String) throws -> String {
    database.value(at: try AccessFixture.path(path)).jsonString
  }

  /// Alice, authenticated on a fresh fixture database.
  private func alice() throws -> (DatasyncDatabase, TestClient) {
    let database = try AccessFixture.database()
    let alice = TestClient("alice", database: database)
    try alice.authenticate("alice-token")
    return (database, alice)
  }

  @Test func aDeniedSetIsRevertedLocallyAndItsCallbackNamesThePath() throws {
    let (database, alice) = try alice()
    let record = try alice.node("users/alice")
    let recorder = EventRecorder()
    record.subscribe(to: .valueChange, queue: queue, onEvent: recorder.record)
    #expect(recorder.wait(forCount: 1))
    let name = try alice.node("users/alice/name")
    expectDenied({ name.set(42, queue: $0, then: $1) }, naming: "/users/alice/name")
    #expect(recorder.wait(forCount: 3))
    queue.sync {}
    #expect(
      recorder.recorded.map { $0.value.asDictionary()?["name"]?.json } == [
        #""Alice""#, "42", #""Alice""#,
      ])
    #expect(recorder.recorded.map(\.acked) == [true, false, true])
    #expect(record.cachedValue.asDictionary()?["name"]?.asString == "Alice")
    #expect(try stored(database, "users/alice") == #"{"name":"Alice","score":10}"#)
  }

  @Test func aDeepSetIsValidatedAtEveryLevelAboveAndBelowIt() throws {
    let (database, alice) = try alice()
    let name = try alice.node("users/alice/name/first")
    expectDenied({ name.set("Al", queue: $0, then: $1) }, naming: "/users/alice/name/first")
    let record = try alice.node("users/alice")
    expectDenied({ record.set(["score": 5], queue: $0, then: $1) }, naming: "/users/alice")
    let extra = try alice.node("users/alice/role")
    expectDenied({ extra.set("admin", queue: $0, then: $1) }, naming: "/users/alice/role")
    let bobsName = try alice.node("users/bob/name")
    expectDenied({ bobsName.set("Mallory", queue: $0, then: $1) }, naming: "/users/bob/name")
    let users = try alice.node("users")
    expectDenied(
      { users.set(["alice": ["name": "Al"]], queue: $0, then: $1) }, naming: "/users")
    #expect(
      try stored(database, "users")
        == #"{"alice":{"name":"Alice","score":10},"bob":{"name":"Bob","score":20}}"#)
    try waitForResult {
      record.set(["name": "Al", "score": 99] as [String: AnyEncodable], queue: $0, then: $1)
    }
    #expect(try stored(database, "users/alice") == #"{"name":"Al","score":99}"#)
  }

  @Test func aMergeIsAllOrNothing() throws {
    let (database, alice) = try alice()
    let record = try alice.node("users/alice")
    expectDenied(
      {
        record.merge(
          with: ["name": "Al", "score": 500] as [String: AnyEncodable], queue: $0, then: $1)
      },
      naming: "/users/alice/score")
    expectDenied(
      { record.merge(with: ["nickname": "Al"], queue: $0, then: $1) },
      naming: "/users/alice/nickname")
    expectDenied(
      { record.merge(with: ["name": 7], queue: $0, then: $1) }, naming: "/users/alice/name")
    #expect(try stored(database, "users/alice") == #"{"name":"Alice","score":10}"#)
    try waitForResult { record.merge(with: ["score": 30], queue: $0, then: $1) }
    #expect(try stored(database, "users/alice") == #"{"name":"Alice","score":30}"#)
  }

  @Test func aMultiLocationMergeIsRefusedWholeWhenOneLocationIsDenied() throws {
    let (database, alice) = try alice()
    let root = try alice.node("/")
    expectDenied(
      {
        root.merge(
          with: ["users/alice/name": "Al", "users/bob/name": "Hacked"], queue: $0, then: $1)
      },
      naming: "/users/bob/name")
    expectDenied(
      {
        root.merge(
          with: ["users/alice/name": "Al", "public/count": 3] as [String: AnyEncodable], queue: $0,
          then: $1)
      },
      naming: "/public/count")
    #expect(try stored(database, "users/alice/name") == #""Alice""#)
    #expect(try stored(database, "users/bob/name") == #""Bob""#)
    #expect(try stored(database, "public") == #"{"doc":"hello"}"#)
    try waitForResult {
      root.merge(with: ["users/alice/name": "Al", "public/note": "hi"], queue: $0, then: $1)
    }
    #expect(try stored(database, "users/alice/name") == #""Al""#)
    #expect(try stored(database, "public/note") == #""hi""#)
  }

  @Test func aPushMustPassTheRulesOfItsNewChild() throws {
    let (database, alice) = try alice()
    let messages = try alice.node("rooms/general/messages")
    let answered = CallbackCounter()
    let forged = try #require(
      messages.push(["author": "bob", "text": "forged"], queue: queue) { answered.record($0) })
    #expect(answered.wait(for: 1))
    #expect(answered.failed.first?.code == .permissionDenied)
    #expect(answered.failed.first?.message.contains("\"\(forged.path)\"") == true)
    let existing = try alice.node("rooms/general/messages/m1")
    expectDenied(
      { existing.set(["author": "alice", "text": "rewritten"], queue: $0, then: $1) },
      naming: "/rooms/general/messages/m1")
    #expect(
      try stored(database, "rooms/general/messages") == #"{"m1":{"author":"bob","text":"hi"}}"#)
    _ = try waitForResult { (queue, then: @escaping (WebcomResult<Void>) -> Void) in
      messages.push(["author": "alice", "text": "hello"], queue: queue, then: then)
    }
    #expect(
      database.value(at: try AccessFixture.path("rooms/general/messages")).children?.count == 2)
  }

  @Test func aTransactionNeedsReadAndWriteAccessAndValidData() throws {
    let (database, alice) = try alice()
    let bobsScore = try alice.node("users/bob/score")
    expectDenied(
      { bobsScore.transaction({ _ in .set(0) }, queue: $0, then: $1) }, naming: "/users/bob/score")
    let score = try alice.node("users/alice/score")
    expectDenied(
      { score.transaction({ _ in .set(500) }, queue: $0, then: $1) }, naming: "/users/alice/score")
    #expect(
      try stored(database, "users")
        == #"{"alice":{"name":"Alice","score":10},"bob":{"name":"Bob","score":20}}"#)
    let result = try waitForResult { score.transaction({ _ in .set(50) }, queue: $0, then: $1) }
    #expect(result.committed && result.value.asInt == 50)
  }

  @Test func anIncrementIsCheckedOnItsResultAndTellsNothingUnreadable() throws {
    let (database, alice) = try alice()
    let score = try alice.node("users/alice/score")
    expectDenied(
      { score.increment(by: 200, queue: $0, then: $1) }, naming: "/users/alice/score")
    let bobsScore = try alice.node("users/bob/score")
    expectDenied({ bobsScore.increment(queue: $0, then: $1) }, naming: "/users/bob/score")
    #expect(try waitForResult { score.increment(by: 5, queue: $0, then: $1) }.asInt == 15)
    // Votes may be written but not read: the increment counts, its result stays secret.
    let votes = try alice.node("votes")
    #expect(try waitForResult { votes.increment(queue: $0, then: $1) }.isNull)
    #expect(try stored(database, "votes") == "6")
    #expect(try stored(database, "users/bob/score") == "20")
  }

  @Test func copyNeedsToReadItsSourceAndToWriteItsDestination() throws {
    let (database, alice) = try alice()
    let bobsRecord = try alice.node("users/bob")
    let stolen = try alice.node("public/stolen")
    expectDenied({ bobsRecord.copy(to: stolen, queue: $0, then: $1) }, naming: "/users/bob")
    let document = try alice.node("public/doc")
    let bobsName = try alice.node("users/bob/name")
    expectDenied({ document.copy(to: bobsName, queue: $0, then: $1) }, naming: "/users/bob/name")
    #expect(try stored(database, "public/stolen") == "null")
    #expect(try stored(database, "users/bob/name") == #""Bob""#)
    let ownName = try alice.node("users/alice/name")
    try waitForResult { document.copy(to: ownName, queue: $0, then: $1) }
    #expect(try stored(database, "users/alice/name") == #""hello""#)
  }

  @Test func disconnectionOperationsAreCheckedWhenRegisteredAndWhenTheyRun() throws {
    let (database, alice) = try alice()
    let bobsPresence = try alice.node("presence/bob")
    expectDenied(
      { bobsPresence.set(false, at: .onDisconnection, queue: $0, then: $1) },
      naming: "/presence/bob")
    let presence = try alice.node("presence/alice")
    expectDenied(
      { presence.set("away", at: .onDisconnection, queue: $0, then: $1) },
      naming: "/presence/alice")
    try waitForResult { presence.set(false, at: .onDisconnection, queue: $0, then: $1) }
    let vote = try alice.node("votes")
    try waitForResult { vote.set(0, at: .onDisconnection, queue: $0, then: $1) }
    // The presence rules now want numbers: that write is refused when it runs, the vote runs.
    database.rules = try AccessFixture.rules(
      presence:
        #"{"$uid": {".read": true, ".write": "auth.uid == $uid", ".validate": "newData.isNumber()"}}"#
    )
    alice.connection.dropConnection()
    let barrier = try alice.node("public/barrier")
    _ = try? waitForResult { barrier.value(queue: $0, then: $1) }
    #expect(try stored(database, "presence") == "null")
    #expect(try stored(database, "votes") == "0")
  }

  @Test func disconnectionOperationsRunAsTheIdentityTheirTokenStandsForWhenTheyRun() throws {
    let (database, alice) = try alice()
    let presence = try alice.node("presence/alice")
    try waitForResult { presence.set(true, at: .onDisconnection, queue: $0, then: $1) }
    let vote = try alice.node("votes")
    try waitForResult { vote.set(1, at: .onDisconnection, queue: $0, then: $1) }
    database.setAuthentication(AccessFixture.bob, forToken: "alice-token")
    alice.connection.dropConnection()
    let barrier = try alice.node("public/barrier")
    _ = try? waitForResult { barrier.value(queue: $0, then: $1) }
    // Bob may not write Alice's presence; any authenticated user may vote.
    #expect(try stored(database, "presence") == "null")
    #expect(try stored(database, "votes") == "1")
  }
}
