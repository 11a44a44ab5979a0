import DatasyncServer
import Foundation
import Testing

@testable import Datasync

@Suite(.timeLimit(.minutes(1))) struct RESTAccessTests {
  private static let rules = #"""
    {
      "rules": {
        "public": {".read": true},
        "users": {
          "$uid": {
            ".read": "auth != null && auth.uid == $uid",
            ".write": "auth != null && auth.uid == $uid",
            ".validate": "newData.hasChildren(['name'])"
          }
        }
      }
    }
    """#

  private func server() throws -> TestDatabaseServer {
    try TestDatabaseServer(
      rules: try DatasyncRules(json: Self.rules),
      tokens: [
        "alice-token": DatasyncAuthentication(uid: "alice"),
        "bob-token": DatasyncAuthentication(uid: "bob"),
      ])
  }

  @Test func theRulesDecideWithTheTokensIdentity() throws {
    let server = try server()
    let own = try server.request(
      "PUT", "/users/alice.json", body: #"{"name": "Alice"}"#,
      headers: ["Authorization": "Bearer alice-token"])
    #expect(own.status == 200)
    #expect(
      try server.request("GET", "/users/alice.json?auth=alice-token").bodyText
        == #"{"name":"Alice"}"#)
    let other = try server.request("GET", "/users/alice.json?auth=bob-token")
    #expect(other.status == 403 && other.errorMessage?.contains("/users/alice") == true)
    let anonymous = try server.request("GET", "/users/alice.json")
    #expect(anonymous.status == 403)
    let invalid = try server.request(
      "PUT", "/users/alice.json?auth=alice-token", body: #"{"age": 3}"#)
    #expect(invalid.status == 403)
    let around = try server.request(
      "PATCH", "/users.json?auth=alice-token", body: #"{"alice/name": "A", "bob/name": "Mallory"}"#)
    #expect(around.status == 403)
    #expect(try server.request("GET", "/users/bob.json?auth=bob-token").bodyText == "null")
    #expect(try server.request("GET", "/public.json").status == 200)
    // Rules are not filters: the parent of readable children is not readable.
    #expect(try server.request("GET", "/users.json?auth=alice-token").status == 403)
  }

  @Test func anUnknownTokenIsRefused401AndTheAdminBypassesTheRules() throws {
    let server = try server()
    let unknown = try server.request("GET", "/public.json?auth=nobody")
    #expect(unknown.status == 401 && unknown.errorMessage?.contains("token") == true)
    let scheme = try server.request("GET", "/public.json", headers: ["Authorization": "Basic YWJj"])
    #expect(scheme.status == 401)
    let conflicting = try server.request(
      "GET", "/public.json?auth=alice-token", headers: ["Authorization": "Bearer bob-token"])
    #expect(conflicting.status == 400)
    let admin = try server.request(
      "PUT", "/users/bob.json", body: #"{"anything": 1}"#,
      headers: ["Authorization": "Bearer owner"])
    #expect(admin.status == 200)
    #expect(
      try server.request("GET", "/.json?auth=owner").bodyText
        == #"{"users":{"bob":{"anything":1}}}"#)
  }

  @Test func aRevokedTokenIsRefused() throws {
    let server = try server()
    #expect(try server.request("GET", "/users/alice.json?auth=alice-token").status == 200)
    try server.server.database().setAuthentication(nil, forToken: "alice-token")
    #expect(try server.request("GET", "/users/alice.json?auth=alice-token").status == 401)
  }

  @Test func anotherAdminTokenReplacesOwner() throws {
    let server = try TestDatabaseServer(rules: .authenticated) { $0.adminToken = "s3cret" }
    #expect(try server.request("GET", "/.json?auth=owner").status == 401)
    #expect(try server.request("GET", "/.json?auth=s3cret").status == 200)
    #expect(throws: WebcomError.self) {
      try TestDatabaseServer(tokens: ["owner": DatasyncAuthentication(uid: "x")])
    }
  }

  @Test func namespacesAreSeparateDatabasesInTheirOwnFiles() throws {
    let server = try TestDatabaseServer(files: true)
    _ = try server.request("PUT", "/a.json", body: "1")
    _ = try server.request("PUT", "/a.json?ns=chat", body: "2")
    _ = try server.request("PUT", "/a.json", body: "3", headers: ["Host": "games.localhost:9000"])
    #expect(try server.request("GET", "/a.json").bodyText == "1")
    #expect(try server.request("GET", "/a.json?ns=chat").bodyText == "2")
    #expect(
      try server.request("GET", "/a.json", headers: ["Host": "chat.localhost"]).bodyText == "2")
    #expect(try server.request("GET", "/a.json?ns=games").bodyText == "3")
    #expect(
      try server.request("GET", "/a.json", headers: ["Host": "db.example.com"]).bodyText == "1")
    let directory = try #require(server.directory)
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(
      files.contains("data.sqlite") && files.contains("data.chat.sqlite")
        && files.contains("data.games.sqlite"))
    for name in ["Chat", "a_b", "-x", String(repeating: "n", count: 64), "a.b"] {
      let response = try server.request("GET", "/a.json?ns=\(name)")
      #expect(response.status == 400, "\(name)")
    }
  }

  @Test func theNumberOfNamespacesIsBounded() throws {
    let server = try TestDatabaseServer { $0.maximumNamespaces = 2 }
    #expect(try server.request("GET", "/.json?ns=one").status == 200)
    let refused = try server.request("GET", "/.json?ns=two")
    #expect(refused.status == 503 && refused.errorMessage?.contains("2") == true)
    #expect(try server.request("GET", "/.json?ns=one").status == 200)
  }

  @Test func dataSurvivesARestartOfTheServer() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-restart-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("db.sqlite").path
    do {
      let server = try TestDatabaseServer { $0.dataPath = path }
      _ = try server.request("PUT", "/kept.json", body: #"{"x": [1, 2]}"#)
      _ = try server.request("PUT", "/kept.json?ns=other", body: "7")
    }
    let server = try TestDatabaseServer { $0.dataPath = path }
    #expect(try server.request("GET", "/kept.json").bodyText == #"{"x":[1,2]}"#)
    #expect(try server.request("GET", "/kept.json?ns=other").bodyText == "7")
  }
}
