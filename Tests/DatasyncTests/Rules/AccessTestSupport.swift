import Foundation
import Testing

@testable import Datasync

/// A database guarded by the rules of a small chat, seeded by an administrator, for tests that
/// try to get around the rules.
enum AccessFixture {
  /// Users read and write only their own record (a name, a score of at most 100, nothing else);
  /// rooms are read by the authenticated, who add messages signed with their own uid; `public`
  /// holds strings everyone reads; `votes` is a number the authenticated write but nobody reads;
  /// `presence` holds one Boolean per user.
  static func rulesDocument(
    public publicRules: String = defaultPublicRules,
    presence presenceRules: String = defaultPresenceRules
  ) -> String {
    """
    {
      "rules": {
        "users": {
          "$uid": {
            ".read": "auth != null && auth.uid == $uid",
            ".write": "auth != null && auth.uid == $uid",
            ".validate": "newData.hasChildren(['name'])",
            "name": {
              ".validate": "newData.isString() && newData.val().length > 0 && newData.val().length <= 20"
            },
            "score": {
              ".validate": "newData.isNumber() && newData.val() >= 0 && newData.val() <= 100"
            },
            "$other": { ".validate": false }
          }
        },
        "rooms": {
          "$room": {
            ".read": "auth != null",
            "messages": {
              "$message": {
                ".write": "auth != null && !data.exists()",
                ".validate": "newData.hasChildren(['author', 'text']) && newData.child('author').val() == auth.uid"
              }
            }
          }
        },
        "public": \(publicRules),
        "votes": { ".write": "auth != null", ".validate": "newData.isNumber()" },
        "presence": \(presenceRules)
      }
    }
    """
  }

  static let defaultPublicRules = """
    {".read": true, ".write": "auth != null", "$item": {".validate": "newData.isString()"}}
    """

  static let defaultPresenceRules = """
    {"$uid": {".read": true, ".write": "auth != null && auth.uid == $uid", ".validate": "newData.isBoolean()"}}
    """

  static let alice = DatasyncAuthentication(uid: "alice")
  static let bob = DatasyncAuthentication(uid: "bob")

  static let tokens: [String: DatasyncAuthentication] = [
    "alice-token": alice, "bob-token": bob, "admin-token": .admin,
  ]

  static let seed = """
    {
      "users": {
        "alice": {"name": "Alice", "score": 10},
        "bob": {"name": "Bob", "score": 20}
      },
      "rooms": {"general": {"messages": {"m1": {"author": "bob", "text": "hi"}}}},
      "public": {"doc": "hello"},
      "votes": 5
    }
    """

  /// The fixture's rules, with other rules for `public` or `presence` when given.
  static func rules(
    public publicRules: String = defaultPublicRules,
    presence presenceRules: String = defaultPresenceRules
  ) throws -> DatasyncRules {
    try DatasyncRules(json: rulesDocument(public: publicRules, presence: presenceRules))
  }

  /// A database with the fixture's rules, tokens and data (written by an administrator).
  static func database() throws -> DatasyncDatabase {
    let database = DatasyncDatabase(rules: try rules(), tokens: tokens)
    let admin = RawClient(database)
    admin.send(.authenticate(1, token: "admin-token"))
    admin.send(.write(2, .set(.root, try JSONValue.fromJSONData(Data(seed.utf8)))))
    guard case .acknowledged = admin.take().last else {
      throw WebcomError(.internalError, "the administrator could not seed the database")
    }
    database.detach(ObjectIdentifier(admin))
    return database
  }

  static func path(_ string: String) throws -> DatasyncPath {
    try DatasyncPath(parsing: string)
  }
}

extension TestClient {
  /// Authenticates the client's connection with a token, waiting (bounded) for the answer.
  @discardableResult
  func authenticate(_ token: String) throws -> DatasyncAuthentication {
    let answer = Shared<WebcomResult<DatasyncAuthentication>?>(nil)
    let answered = DispatchSemaphore(value: 0)
    connection.authenticate(withToken: token) { result in
      answer.update { $0 = result }
      answered.signal()
    }
    guard answered.wait(timeout: .now() + 10) == .success, let result = answer.current else {
      throw WebcomError(.internalError, "the authentication was not answered within 10 s")
    }
    return try result.get()
  }

  /// Signs the client's connection out, waiting (bounded) for the back end.
  func signOut() throws {
    let answered = DispatchSemaphore(value: 0)
    connection.signOut { answered.signal() }
    guard answered.wait(timeout: .now() + 10) == .success else {
      throw WebcomError(.internalError, "the sign-out was not answered within 10 s")
    }
  }
}

/// Waits (bounded) for the answer of a write-like operation and returns its error, or records
/// an issue when it succeeds.
func expectDenied<T>(
  _ start: (DispatchQueue, @escaping (WebcomResult<T>) -> Void) -> Void,
  naming path: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  do {
    _ = try waitForResult(start)
    Issue.record("the operation at \(path) should be denied", sourceLocation: sourceLocation)
  } catch let error as WebcomError {
    #expect(error.code == .permissionDenied, "\(error)", sourceLocation: sourceLocation)
    #expect(
      error.message.contains("\"\(path)\""), "\(error.message)", sourceLocation: sourceLocation)
  } catch {
    Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
  }
}
