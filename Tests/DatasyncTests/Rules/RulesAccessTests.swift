import Foundation
import Testing

@testable import Datasync

/// The cascade of `.read` and `.write`, and which `.validate` rules a write evaluates, on
/// snapshots of the value model.
@Suite struct RulesAccessTests {
  static let rules = try! DatasyncRules(
    json: """
      {
        "rules": {
          ".read": false,
          "public": { ".read": true },
          "users": {
            ".read": "auth != null",
            "$uid": {
              ".read": false,
              ".write": "auth != null && auth.uid == $uid",
              ".validate": "newData.hasChildren(['name'])",
              "name": { ".validate": "newData.isString() && newData.val().length <= 20" },
              "age": { ".validate": "newData.isNumber() && newData.val() >= 0" },
              "$other": { ".validate": false }
            }
          },
          "records": { "$id": { ".read": true } },
          "docs": { "$doc": { ".read": "data.child('public').val() == true" } },
          "widget": {
            ".write": true,
            ".validate": "newData.hasChildren(['color', 'size'])",
            "size": { ".validate": "newData.isNumber() && newData.val() >= 0 && newData.val() <= 99" },
            "color": { ".validate": "root.child('colors/' + newData.val()).exists()" }
          },
          "colors": { ".read": true },
          "posts": {
            "$post": {
              ".write": "!data.exists() || data.child('author').val() == auth.uid",
              ".validate": "newData.child('created').val() <= now",
              "title": { ".validate": "newData.val().length < 5" }
            }
          }
        }
      }
      """)

  static let tree = RulesFixture.tree(
    """
    {
      "public": {"motd": "hi"},
      "users": {"alice": {"name": "Alice", "age": 30}, "bob": {"name": "Bob"}},
      "records": {"r1": 1, "r2": 2},
      "docs": {"open": {"public": true, "text": "a"}, "secret": {"text": "b"}},
      "colors": {"blue": true, "red": true},
      "posts": {"p1": {"author": "bob", "created": 1}}
    }
    """)

  static let alice = DatasyncAuthentication(uid: "alice")
  static let bob = DatasyncAuthentication(uid: "bob")
  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  static func path(_ string: String) -> DatasyncPath {
    try! DatasyncPath(parsing: string)
  }

  static func canRead(_ path: String, _ auth: DatasyncAuthentication?, in tree: JSONValue = tree)
    -> Bool
  {
    rules.canRead(Self.path(path), auth: auth, root: tree, now: now)
  }

  /// Checks writing each JSON value at its path (all in one write) over `tree`. A write of one
  /// path is also checked as the database checks a set, with its new value known
  /// (``DatasyncRules/checkWrite(setting:at:auth:oldRoot:newRoot:now:)``), which must give the
  /// same answer.
  static func write(
    _ changes: KeyValuePairs<String, String>, as auth: DatasyncAuthentication?,
    over tree: JSONValue = tree, rules: DatasyncRules = rules,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> WebcomError? {
    var newRoot = tree
    for (path, json) in changes {
      newRoot = newRoot.setting(RulesFixture.tree(json), at: Self.path(path).keys)
    }
    let error = rules.checkWrite(
      at: changes.map { Self.path($0.key) }, auth: auth, oldRoot: tree, newRoot: newRoot, now: now)
    if changes.count == 1, let (path, json) = changes.first {
      let known = rules.checkWrite(
        setting: RulesFixture.tree(json), at: Self.path(path), auth: auth, oldRoot: tree,
        newRoot: newRoot, now: now)
      #expect(
        known?.code == error?.code && known?.message == error?.message,
        "the known new value changed the answer", sourceLocation: sourceLocation)
    }
    return error
  }

  // MARK: - Reads

  @Test func onlyALiteralTrueRootWriteWithoutValidationGrantsEveryWrite() throws {
    #expect(DatasyncRules.open.grantsEveryWrite)
    #expect(!DatasyncRules.authenticated.grantsEveryWrite)
    #expect(!Self.rules.grantsEveryWrite)
    let validated = try DatasyncRules(
      json: #"{"rules": {".write": true, "a": {"$b": {".validate": "newData.isNumber()"}}}}"#)
    #expect(!validated.grantsEveryWrite)
    let tree = RulesFixture.tree(#"{"a": {"b": "text"}}"#)
    #expect(
      validated.checkWrite(
        at: [DatasyncPath(validatedKeys: ["a", "b"])], auth: nil, oldRoot: .null, newRoot: tree,
        now: Date())?.code == .permissionDenied)
  }

  @Test func theFirstReadGrantOnTheWayDownWins() {
    #expect(!Self.canRead("/", Self.alice))
    #expect(Self.canRead("/public", nil))
    #expect(Self.canRead("/public/motd", nil))
    #expect(Self.canRead("/users", Self.alice))
    #expect(!Self.canRead("/users", nil))
    #expect(Self.canRead("/users/bob", Self.alice), "a deeper .read: false cannot take it back")
    #expect(Self.canRead("/users/bob/name/x/y", Self.alice))
    #expect(!Self.canRead("/colours", Self.alice), "default deny")
  }

  @Test func rulesAreNotFilters() {
    #expect(!Self.canRead("/records", nil))
    #expect(Self.canRead("/records/r1", nil))
    #expect(Self.canRead("/records/missing", nil))
    let error = Self.rules.checkRead(
      Self.path("/records"), auth: nil, root: Self.tree, now: Self.now)
    #expect(error?.code == .permissionDenied)
    #expect(error?.message.contains("reading \"/records\" is denied") == true)
  }

  @Test func readRulesSeeTheDataAtTheirLocation() {
    #expect(Self.canRead("/docs/open", nil))
    #expect(Self.canRead("/docs/open/text", nil))
    #expect(!Self.canRead("/docs/secret", nil))
    let published = Self.tree.setting(.bool(true), at: ["docs", "secret", "public"])
    #expect(Self.canRead("/docs/secret", nil, in: published))
  }

  @Test func emptyRulesDenyEverything() throws {
    let rules = try DatasyncRules(json: #"{"rules": {}}"#)
    #expect(!rules.canRead(Self.path("/a"), auth: Self.alice, root: Self.tree, now: Self.now))
    #expect(Self.write(["/a": "1"], as: Self.alice, rules: rules)?.code == .permissionDenied)
  }

  @Test func administratorsBypassEveryRule() {
    #expect(Self.canRead("/", .admin))
    #expect(Self.write(["/users/alice/age": #""old""#], as: .admin) == nil)
    #expect(Self.write(["/anything": "1"], as: .admin) == nil)
  }

  // MARK: - Writes

  @Test func writesNeedAGrantAtOrAboveTheirPath() {
    #expect(Self.write(["/users/alice": #"{"name": "Alice", "age": 31}"#], as: Self.alice) == nil)
    let error = Self.write(["/users/alice": #"{"name": "Mallory"}"#], as: Self.bob)
    #expect(error?.code == .permissionDenied)
    #expect(
      error?.message
        == "writing \"/users/alice\" is denied: no .write rule at or above it grants access")
    #expect(Self.write(["/users/alice/name": #""x""#], as: nil)?.code == .permissionDenied)
    #expect(
      Self.write(["/users": #"{"alice": {"name": "A"}}"#], as: Self.alice)?.message.contains(
        "writing \"/users\" is denied") == true,
      "a grant below the written path does not count")
  }

  @Test func writeRulesSeeTheDataBeforeTheWrite() {
    #expect(Self.write(["/posts/p2": #"{"created": 5}"#], as: Self.alice) == nil)
    #expect(Self.write(["/posts/p1": #"{"author": "alice", "created": 5}"#], as: Self.alice) != nil)
    #expect(Self.write(["/posts/p1/created": "7"], as: Self.bob) == nil)
  }

  @Test func theWrittenNodesValidateRuleMustHold() {
    let error = Self.write(["/users/alice": #"{"age": 3}"#], as: Self.alice)
    #expect(
      error?.message
        == "writing \"/users/alice\" is denied: the rule \"/users/$uid/.validate\" refused the "
        + "new data at \"/users/alice\" (it is false)")
  }

  @Test func descendantsOfTheNewDataAreValidated() {
    let wrongType = Self.write(["/users/alice": #"{"name": 5}"#], as: Self.alice)
    #expect(
      wrongType?.message
        == "writing \"/users/alice\" is denied: the rule \"/users/$uid/name/.validate\" refused "
        + "the new data at \"/users/alice/name\" (it is false)")
    let extra = Self.write(["/users/alice": #"{"name": "A", "admin": true}"#], as: Self.alice)
    #expect(extra?.message.contains("the rule \"/users/$uid/$other/.validate\"") == true)
    #expect(extra?.message.contains("at \"/users/alice/admin\"") == true)
    let deep = Self.write(["/users/alice": #"{"name": "A", "age": {"years": 3}}"#], as: Self.alice)
    #expect(deep?.message.contains("\"/users/$uid/age/.validate\"") == true)
  }

  @Test func ancestorsAreValidatedWithTheMergedNewData() {
    #expect(Self.write(["/users/alice/name": #""Al""#], as: Self.alice) == nil)
    #expect(
      Self.write(["/users/alice/name": #""\#(String(repeating: "x", count: 21))""#], as: Self.alice)
        != nil)
    let carol = DatasyncAuthentication(uid: "carol")
    let noName = Self.write(["/users/carol/age": "3"], as: carol)
    #expect(
      noName?.message.contains("\"/users/$uid/.validate\" refused the new data at \"/users/carol\"")
        == true)
    #expect(Self.write(["/users/carol/name": #""Carol""#], as: carol) == nil)
  }

  @Test func validateRulesAreNotEvaluatedWhereTheNewDataIsNull() {
    #expect(Self.write(["/users/alice": "null"], as: Self.alice) == nil)
    #expect(Self.write(["/users/alice/age": "null"], as: Self.alice) == nil)
    let nameless = Self.write(["/users/alice/name": "null"], as: Self.alice)
    #expect(
      nameless?.message.contains(
        "\"/users/$uid/.validate\" refused the new data at \"/users/alice\"")
        == true, "the user still exists without a name")
    #expect(
      Self.write(["/users/alice/name": "null"], as: Self.bob)?.message.contains("no .write rule")
        == true)
  }

  @Test func theWidgetOfTheHostedDocumentation() {
    let widget = Self.tree.setting(
      RulesFixture.tree(#"{"color": "red", "size": 1}"#), at: ["widget"])
    #expect(Self.write(["/widget/size": "99"], as: nil, over: widget) == nil)
    #expect(
      Self.write(["/widget/size": "99"], as: nil)?.message.contains("\"/widget/.validate\"") == true
    )
    #expect(Self.write(["/widget": #"{"size": 22}"#], as: nil) != nil)
    #expect(
      Self.write(["/widget": #"{"size": "foo", "color": "red"}"#], as: nil)?.message.contains(
        "\"/widget/size/.validate\"") == true)
    #expect(Self.write(["/widget": #"{"size": 21, "color": "blue"}"#], as: nil) == nil)
    #expect(
      Self.write(["/widget": #"{"size": 21, "color": "green"}"#], as: nil)?.message.contains(
        "\"/widget/color/.validate\"") == true)
    #expect(Self.write(["/widget": "null"], as: nil, over: widget) == nil)
  }

  @Test func everyLocationOfAMultiLocationWriteIsChecked() {
    #expect(
      Self.write(["/users/alice/name": #""A""#, "/users/alice/age": "31"], as: Self.alice) == nil)
    let badAge = Self.write(
      ["/users/alice/name": #""A""#, "/users/alice/age": #""old""#], as: Self.alice)
    #expect(badAge?.message.contains("writing \"/users/alice/age\" is denied") == true)
    let otherUser = Self.write(
      ["/users/alice/name": #""A""#, "/users/bob/name": #""B""#], as: Self.alice)
    #expect(
      otherUser?.message
        == "writing \"/users/bob/name\" is denied: no .write rule at or above it grants access")
  }

  @Test func aGrantAboveDoesNotSkipValidation() throws {
    let rules = try DatasyncRules(
      json: """
        {"rules": {".write": "auth.uid == 'root'",
                   "users": {"$uid": {"name": {".validate": "newData.isString()"}}}}}
        """)
    let root = DatasyncAuthentication(uid: "root")
    #expect(Self.write(["/users/x/name": #""X""#], as: root, rules: rules) == nil)
    #expect(Self.write(["/users/x/name": "1"], as: root, rules: rules) != nil)
    #expect(Self.write(["/users": #"{"x": {"name": 1}}"#], as: root, rules: rules) != nil)
    #expect(Self.write(["/": #"{"users": {"x": {"name": 1}}}"#], as: root, rules: rules) != nil)
    #expect(Self.write(["/": #"{"users": {"x": {"name": "X"}}}"#], as: root, rules: rules) == nil)
  }

  @Test func validationsBelowTheWrittenPathSeeTheirOldData() throws {
    let rules = try DatasyncRules(
      json: """
        {"rules": {"counters": {"$counter": {
          ".write": true,
          "value": {".validate": "!data.exists() || newData.val() == data.val() + 1"},
          "$other": {".validate": "!data.exists() || data.val() == newData.val()"}}}}}
        """)
    let tree = RulesFixture.tree(#"{"counters": {"a": {"value": 1, "name": "A"}}}"#)
    #expect(
      Self.write(["/counters/a": #"{"value": 2, "name": "A"}"#], as: nil, over: tree, rules: rules)
        == nil)
    #expect(
      Self.write(["/counters/a": #"{"value": 5, "name": "A"}"#], as: nil, over: tree, rules: rules)
        != nil)
    #expect(
      Self.write(["/counters/a": #"{"value": 2, "name": "B"}"#], as: nil, over: tree, rules: rules)
        != nil)
    #expect(
      Self.write(["/counters/b": #"{"value": 7, "name": "B"}"#], as: nil, over: tree, rules: rules)
        == nil)
    #expect(
      Self.write(["/": #"{"counters": {"a": {"value": 2}}}"#], as: nil, over: tree, rules: rules)
        != nil, "no grant at the root")
  }

  @Test func aRefusedWriteWithoutGrantReportsTheMissingGrant() {
    let error = Self.write(["/users/alice": #"{"name": 5}"#], as: Self.bob)
    #expect(error?.message.contains("no .write rule") == true)
  }

  @Test func failingValidationsSayWhy() {
    let error = Self.write(["/posts/p2": #"{"created": 1, "title": 7}"#], as: Self.alice)
    #expect(
      error?.message.hasSuffix(
        "refused the new data at \"/posts/p2/title\" (it failed: length needs a string, found a "
          + "number)") == true)
    let future = Self.write(["/posts/p2": #"{"created": 1800000000000}"#], as: Self.alice)
    #expect(future?.message.contains("\"/posts/$post/.validate\"") == true)
  }

  /// A write whose new value is known looks the new data up only where a rule reads it; the
  /// answers are those of a check that looks it up everywhere (the helper compares both): a
  /// `.write` and a `.validate` above the path reading `newData`, a deletion that empties the
  /// nodes above it (they are then null, and validation stops there), data read below the path.
  @Test func aKnownNewValueGivesTheSameAnswers() throws {
    let rules = try DatasyncRules(
      json: """
        {
          "rules": {
            "a": {
              ".write": "newData.child('b/c').val() != 13",
              ".validate": "newData.hasChildren(['b'])",
              "b": {
                "c": { ".validate": "newData.isNumber()" },
                "d": { ".validate": "!data.exists() || newData.val() == data.val()" }
              }
            }
          }
        }
        """)
    let tree = RulesFixture.tree(#"{"a": {"b": {"c": 1, "d": 2}}}"#)
    func write(_ path: String, _ json: String) -> WebcomError? {
      Self.write([path: json], as: Self.alice, over: tree, rules: rules)
    }
    #expect(write("/a/b/c", "5") == nil)
    #expect(write("/a/b/c", "13")?.message.contains("no .write rule") == true)
    #expect(write("/a/b/c", #""five""#)?.message.contains("\"/a/b/c/.validate\"") == true)
    #expect(write("/a/b/c", "null") == nil)
    #expect(write("/a/b", "null") == nil, "deleting every child of /a skips its validation")
    #expect(write("/a/b/d", "2") == nil)
    #expect(write("/a/b/d", "3")?.message.contains("\"/a/b/d/.validate\"") == true)
    #expect(write("/a", #"{"x": 1}"#)?.message.contains("\"/a/.validate\"") == true)
  }

  /// Rules are immutable: many threads check reads and writes at once and all get the answers a
  /// single thread gets.
  @Test func concurrentChecksAgree() async {
    let cases: [(String, DatasyncAuthentication?, Bool)] = [
      ("/users/bob", Self.alice, true), ("/users", nil, false), ("/records/r2", nil, true),
      ("/docs/secret", nil, false),
    ]
    await withTaskGroup(of: Int.self) { group in
      for worker in 0..<8 {
        group.addTask {
          var mismatches = 0
          for iteration in 0..<300 {
            let (path, auth, expected) = cases[(worker + iteration) % cases.count]
            if Self.canRead(path, auth) != expected { mismatches += 1 }
            let allowed = Self.write(["/users/alice/name": #""N\#(iteration)""#], as: Self.alice)
            let refused = Self.write(["/users/alice/name": "\(iteration)"], as: Self.alice)
            if allowed != nil || refused == nil { mismatches += 1 }
          }
          return mismatches
        }
      }
      for await mismatches in group { #expect(mismatches == 0) }
    }
  }
}
