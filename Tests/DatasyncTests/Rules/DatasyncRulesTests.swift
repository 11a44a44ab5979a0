import Foundation
import Testing

@testable import Datasync

@Suite struct DatasyncRulesTests {
  private static let root = JSONValue.null
  private static let now = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func openRulesAllowEveryoneEverything() {
    let path = DatasyncPath(validatedKeys: ["a", "b"])
    let tree = RulesFixture.tree(#"{"a": {"b": 1}}"#)
    for auth in [nil, RulesFixture.alice] {
      #expect(DatasyncRules.open.canRead(path, auth: auth, root: Self.root, now: Self.now))
      #expect(
        DatasyncRules.open.checkWrite(
          at: [path], auth: auth, oldRoot: Self.root, newRoot: tree, now: Self.now) == nil)
    }
    #expect(DatasyncRules.open.description.contains("\".read\": true"))
  }

  @Test func authenticatedRulesAllowOnlyAuthenticatedClients() {
    let rules = DatasyncRules.authenticated
    let path = DatasyncPath(validatedKeys: ["a"])
    let tree = RulesFixture.tree(#"{"a": 1}"#)
    #expect(rules.canRead(path, auth: RulesFixture.alice, root: tree, now: Self.now))
    #expect(!rules.canRead(path, auth: nil, root: tree, now: Self.now))
    #expect(
      rules.checkWrite(
        at: [path], auth: RulesFixture.alice, oldRoot: Self.root, newRoot: tree, now: Self.now)
        == nil)
    #expect(
      rules.checkWrite(at: [path], auth: nil, oldRoot: Self.root, newRoot: tree, now: Self.now)?
        .code == .permissionDenied)
  }

  @Test func documentsAcceptCommentsBooleansAndIndexOn() throws {
    let rules = try DatasyncRules(
      json: """
        // The chat's rules.
        {
          "rules": {
            /* rooms are public */
            "rooms": {
              ".read": true,
              ".indexOn": ["name", "created"],
              "$room": {
                ".write": "auth != null", // any signed-in user
                ".indexOn": "timestamp",
                ".validate": "newData.hasChildren(['name'])"
              }
            }
          }
        }
        """)
    let room = rules.root.child("rooms")!.child("lobby")!
    #expect(room.write != nil && room.validate != nil && room.read == nil)
    #expect(room.pattern == "/rooms/$room")
    #expect(room.validate?.path == "/rooms/$room/.validate")
  }

  /// A document and a text its error must contain.
  static let invalidDocuments: [(json: String, message: String)] = [
    ("", "malformed at line 1, column 1: expected a value, found the end of the document"),
    (
      "{\"rules\": {\n  \".read\": true,\n  }\n}",
      "malformed at line 3, column 3: expected a member name"
    ),
    ("{\"rules\": {\".read\": tru}}", "malformed at line 1, column 21: expected a value"),
    ("{\"rules\": {}} x", "malformed at line 1, column 15: expected the end of the document"),
    ("{\"rules\": {/* open", "malformed at line 1, column 12: the comment has no closing"),
    (
      "[]",
      "at line 1, column 1: the document must be an object with a \"rules\" member, not an array"
    ),
    ("{}", "the document has no \"rules\" member"),
    ("{\"rules\": {}, \"rule\": {}}", "at line 1, column 15: unknown member \"rule\""),
    (
      "{\"rules\": true}", "at \"/\" (line 1, column 11): the rules of a location must be an object"
    ),
    (
      "{\"rules\": {\"users\": {\".wirte\": true}}}",
      "at \"/users/.wirte\" (line 1, column 22): unknown rule \".wirte\"; expected .read, .write, .validate or .indexOn"
    ),
    (
      "{\"rules\": {\".read\": 1}}",
      "at \"/.read\" (line 1, column 21): a rule is an expression string or a boolean, not a number"
    ),
    (
      "{\"rules\": {\"a\": {\".write\": null}}}",
      "at \"/a/.write\" (line 1, column 28): a rule is an expression string or a boolean, not null"
    ),
    (
      "{\"rules\": {\"$a\": {}, \"$b\": {}}}",
      "at \"/$b\" (line 1, column 22): a location has at most one $ wildcard"
    ),
    (
      "{\"rules\": {\"$a\": {\"$a\": {}}}}",
      "at \"/$a/$a\" (line 1, column 19): the wildcard $a is already used above"
    ),
    (
      "{\"rules\": {\"$1a\": {}}}",
      "at \"/$1a\" (line 1, column 12): a wildcard is \"$\" followed by letters"
    ),
    ("{\"rules\": {\"a#b\": {}}}", "at \"/a#b\" (line 1, column 12): the key \"a#b\" is invalid"),
    ("{\"rules\": {\"a\": {}, \"a\": {}}}", "at \"/a\" (line 1, column 21): the key appears twice"),
    ("{\"rules\": {}, \"rules\": {}}", "at line 1, column 15: \"rules\" appears twice"),
    (
      "{\"rules\": {\"a\": 3}}",
      "at \"/a\" (line 1, column 17): the rules of a location must be an object, not a number"
    ),
    (
      "{\"rules\": {\".indexOn\": [\"a\", 2]}}",
      "at \"/.indexOn\" (line 1, column 30): .indexOn lists child names as strings, not a number"
    ),
    (
      "{\"rules\": {\".indexOn\": {}}}",
      "at \"/.indexOn\" (line 1, column 24): .indexOn is a child name or an array of child names"
    ),
    (
      "{\"rules\": {\"users\": {\"$uid\": {\".write\": \"auth.uid == $user\"}}}}",
      "the rule \"/users/$uid/.write\" is invalid at column 13 of \"auth.uid == $user\": unknown variable $user"
    ),
    (
      "{\"rules\": {\n  \"a\": {\".read\": \"data.child('x') && true\"}\n}}",
      "the rule \"/a/.read\" is invalid at column 17 of \"data.child('x') && true\": the operands of && must be booleans, one is a snapshot"
    ),
    ("{\"rules\": {\"\u{E9}\": {\".read\": 2}}}", "at \"/\u{E9}/.read\" (line 1, column 27)"),
    ("{\"rules\": {\"a\u{1}\": {\".read\": true}}}", "a control character must be escaped"),
    ("{\"rules\": {\"a\\x\": {\".read\": true}}}", "unknown escape \\x in the string"),
    (
      "{\"rules\": {\"a\": {\".read\": \"'\\u00e9\\u00e9' == 1 +\"}}}",
      "is invalid at column 12 of \"'\u{E9}\u{E9}' == 1 +\""
    ),
  ]

  @Test func invalidDocumentsNameTheCulprit() {
    for (json, message) in Self.invalidDocuments {
      let error = rulesError(json)
      #expect(error?.code == .invalidArgument, "\(json)")
      #expect(error?.message.contains(message) == true, "\(json): \(error?.message ?? "no error")")
    }
  }

  @Test func rulesNestAtMostThirtyTwoLevels() {
    func document(depth: Int) -> String {
      var json = #"{".read": true}"#
      for _ in 0..<depth { json = #"{"a": \#(json)}"# }
      return #"{"rules": \#(json)}"#
    }
    #expect(rulesError(document(depth: 32)) == nil)
    #expect(
      rulesError(document(depth: 33))?.message.contains("deeper than the limit of 32") == true)
    let deepJSON = String(repeating: "[", count: 70) + String(repeating: "]", count: 70)
    #expect(
      rulesError(#"{"rules": {".indexOn": \#(deepJSON)}}"#)?.message.contains(
        "nested more than 64 levels") == true)
  }

  @Test func longExpressionsAreQuotedAroundTheError() throws {
    let filler = (0..<30).map { "auth.uid == 'user\($0)'" }.joined(separator: " || ")
    let json = #"{"rules": {".read": "\#(filler) || oops"}}"#
    let message = try #require(rulesError(json)).message
    #expect(message.contains("unknown name \"oops\""))
    #expect(message.contains("…\"") && message.contains("|| oops\""))
    #expect(message.count < 300)
  }

  @Test func authenticationsCompareByIdentityAndClaims() {
    let alice = DatasyncAuthentication(uid: "alice", claims: ["level": DatasyncValue(.int(3))])
    #expect(
      alice == DatasyncAuthentication(uid: "alice", claims: ["level": DatasyncValue(.int(3))]))
    #expect(
      alice != DatasyncAuthentication(uid: "alice", claims: ["level": DatasyncValue(.int(4))]))
    #expect(alice != DatasyncAuthentication(uid: "alice", provider: "password"))
    #expect(alice.provider == "custom")
    #expect(Set([alice, alice, .admin]).count == 2)
    #expect(DatasyncAuthentication.admin.isAdmin && !alice.isAdmin)
    #expect(DatasyncAuthentication.admin != DatasyncAuthentication(uid: "admin", provider: "admin"))
    #expect(DatasyncAuthentication.admin.description == "admin")
    #expect(alice.description == "\"alice\" (custom)")
  }
}
