import Foundation
import Testing

@testable import Datasync

/// The back end's side of access control, message by message: authentication requests, what
/// a client is told (and not told) of data it may not read, and the order of revocations.
@Suite struct DatabaseAccessProtocolTests {
  private static func path(_ string: String) throws -> DatasyncPath {
    try DatasyncPath(parsing: string)
  }

  /// A database where `/secret` may be written by the authenticated but read by nobody, and
  /// `/notes` read and written by the authenticated.
  private static func database() throws -> DatasyncDatabase {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(
        json: """
          {"rules": {
            "secret": {".write": "auth != null"},
            "notes": {".read": "auth != null", ".write": "auth != null"}
          }}
          """),
      tokens: ["alice-token": DatasyncAuthentication(uid: "alice"), "admin-token": .admin])
    let admin = RawClient(database)
    admin.send(.authenticate(1, token: "admin-token"))
    admin.send(.write(2, .set(try path("secret"), .string("swordfish"))))
    admin.send(.write(3, .set(try path("notes"), .string("text"))))
    database.detach(ObjectIdentifier(admin))
    return database
  }

  private static func authenticatedClient(_ database: DatasyncDatabase) -> RawClient {
    let client = RawClient(database)
    client.send(.authenticate(1, token: "alice-token"))
    _ = client.take()
    return client
  }

  @Test func authenticationIsAnsweredWithTheIdentityOrRefusedWithoutEchoingTheToken() throws {
    let database = try Self.database()
    let client = RawClient(database)
    _ = client.take()
    client.send(.authenticate(7, token: "not-a-token"))
    guard case .rejected(7, let error, .none)? = client.take().first else {
      Issue.record("an unknown token should be refused")
      return
    }
    #expect(error.code == .permissionDenied)
    #expect(!error.message.contains("not-a-token"))
    client.send(.authenticate(8, token: "alice-token"))
    guard case .authenticated(8, let identity)? = client.take().first else {
      Issue.record("a known token should authenticate")
      return
    }
    #expect(identity.uid == "alice")
    client.send(.signOut(9))
    guard case .acknowledged(9, .none)? = client.take().first else {
      Issue.record("a sign-out should be acknowledged")
      return
    }
    client.send(.listen(try Self.path("notes")))
    guard case .revoked(let revoked, let denied)? = client.take().first else {
      Issue.record("a signed-out client should not read the notes")
      return
    }
    #expect(revoked.string == "/notes" && denied.code == .permissionDenied)
  }

  @Test func aTransactionIsNoOracleForDataItMayNotRead() throws {
    let database = try Self.database()
    let client = Self.authenticatedClient(database)
    let secret = try Self.path("secret")
    client.send(.write(1, .compareAndSet(secret, expected: .string("swordfish"), value: .null)))
    client.send(.write(2, .compareAndSet(secret, expected: .string("guess"), value: .null)))
    let answers = client.take()
    #expect(answers.count == 2)
    var messages: [String] = []
    for answer in answers {
      guard case .rejected(_, let error, let current) = answer else {
        Issue.record("a compare-and-set at an unreadable location should be refused: \(answer)")
        continue
      }
      #expect(error.code == .permissionDenied)
      #expect(current == nil)
      messages.append(error.message)
    }
    #expect(messages.count == 2 && messages[0] == messages[1])
    #expect(database.value(at: secret) == .string("swordfish"))
  }

  @Test func aRefusedWriteCarriesTheCurrentValueOnlyWhereTheClientMayRead() throws {
    let database = try Self.database()
    let client = Self.authenticatedClient(database)
    client.send(.write(1, .increment(try Self.path("secret"), start: 0, step: 1)))
    client.send(.write(2, .increment(try Self.path("notes"), start: 0, step: 1)))
    let answers = client.take()
    guard answers.count == 2, case .rejected(1, let hidden, let unreadable) = answers[0],
      case .rejected(2, let shown, let readable) = answers[1]
    else {
      Issue.record("both increments of strings should be refused: \(answers)")
      return
    }
    #expect(hidden.code == .notANumber && shown.code == .notANumber)
    #expect(unreadable == nil)
    #expect(readable == .string("text"))
  }

  @Test func anIncrementIsAcknowledgedWithItsResultOnlyWhereTheClientMayRead() throws {
    let database = try Self.database()
    let client = Self.authenticatedClient(database)
    client.send(.write(1, .increment(try Self.path("secret/count"), start: 0, step: 2)))
    client.send(.write(2, .increment(try Self.path("notes/count"), start: 0, step: 3)))
    let answers = client.take()
    guard answers.count == 2, case .acknowledged(1, let hidden) = answers[0],
      case .acknowledged(2, let shown) = answers[1]
    else {
      Issue.record("both increments should be applied: \(answers)")
      return
    }
    #expect(hidden == nil)
    guard case .set(let path, let value)? = shown else {
      Issue.record("the readable increment should be acknowledged with its result")
      return
    }
    #expect(path.string == "/notes/count" && value == .int(3))
    #expect(database.value(at: try Self.path("secret/count")) == .int(2))
  }

  @Test func aDeniedListenEndsTheListensBelowItAndNothingMoreIsSentThere() throws {
    let database = DatasyncDatabase(
      rules: try DatasyncRules(json: #"{"rules": {"a": {"b": {".read": true}}, ".write": true}}"#))
    let listener = RawClient(database)
    let writer = RawClient(database)
    listener.send(.listen(try Self.path("a/b")))
    listener.send(.listen(try Self.path("a")))
    let answers = listener.take()
    guard answers.count == 3, case .listenData = answers[1], case .revoked(let path, _) = answers[2]
    else {
      Issue.record("the listen at /a/b is served, the one at /a revoked: \(answers)")
      return
    }
    #expect(path.string == "/a")
    writer.send(.write(1, .set(try Self.path("a/b"), .int(1))))
    #expect(listener.take().isEmpty)
    listener.send(.read(2, try Self.path("a")))
    guard case .rejected(2, let error, .none)? = listener.take().first else {
      Issue.record("a read of /a should be refused")
      return
    }
    #expect(error.code == .permissionDenied)
  }

  @Test func anIdentityChangeIsAnnouncedBeforeTheRevocationsItCauses() throws {
    let database = try Self.database()
    let alice = Self.authenticatedClient(database)
    let visitor = RawClient(database)
    alice.send(.listen(try Self.path("notes")))
    _ = alice.take()
    _ = visitor.take()
    let renamed = DatasyncAuthentication(
      uid: "alice", claims: ["renamed": DatasyncValue(.bool(true))])
    database.setAuthentication(renamed, forToken: "alice-token")
    guard case .authenticationChanged(renamed)? = alice.take().first else {
      Issue.record("the new identity should be announced")
      return
    }
    database.setAuthentication(renamed, forToken: "alice-token")
    #expect(alice.take().isEmpty, "an unchanged identity is not announced")
    database.setAuthentication(nil, forToken: "alice-token")
    let answers = alice.take()
    guard answers.count == 2, case .authenticationChanged(.none) = answers[0],
      case .revoked(let path, let error) = answers[1]
    else {
      Issue.record("the revocation of the token, then of the listen: \(answers)")
      return
    }
    #expect(path.string == "/notes" && error.code == .permissionDenied)
    #expect(visitor.take().isEmpty)
  }

  @Test func rulesChangedReviseEveryClientsListensOutermostFirst() throws {
    let database = try Self.database()
    let clients = (0..<3).map { _ in Self.authenticatedClient(database) }
    for client in clients {
      for path in ["notes/a/b", "notes", "notes/a"] {
        client.send(.listen(try Self.path(path)))
      }
      #expect(client.take().count == 3)
    }
    database.rules = try DatasyncRules(json: #"{"rules": {"notes": {"a": {".read": true}}}}"#)
    for client in clients {
      let answers = client.take()
      guard answers.count == 1, case .revoked(let path, _) = answers[0] else {
        Issue.record("one revocation at /notes, the outermost listen: \(answers)")
        continue
      }
      #expect(path.string == "/notes")
    }
    database.rules = .open
    for client in clients {
      client.send(.listen(try Self.path("notes/a")))
      #expect(client.take().count == 1)
    }
  }
}
