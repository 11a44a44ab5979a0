import Foundation
import Testing

@testable import Datasync

/// The trees, the authentication and the location that rule expressions are evaluated against in
/// the tests.
enum RulesFixture {
  static func tree(_ json: String) -> JSONValue {
    try! JSONValue.fromJSONData(Data(json.utf8))
  }

  /// The tree before the write.
  static let oldRoot = tree(
    """
    {
      "users": {
        "alice": {"name": "Alice", "age": 30, "admin": true, "score": 2.5},
        "bob": {"name": "Bob", "age": 25}
      },
      "colors": {"blue": true, "red": true},
      "rooms": {"general": {"topic": "hello world", "members": {"alice": true}}}
    }
    """)

  /// The tree after the write: Alice renamed, one year older.
  static let newRoot = oldRoot.setting(.string("Alicia"), at: ["users", "alice", "name"])
    .setting(.int(31), at: ["users", "alice", "age"])

  static let alice = DatasyncAuthentication(
    uid: "alice", provider: "password",
    claims: [
      "moderator": DatasyncValue(.bool(true)),
      "level": DatasyncValue(.int(3)),
      "email": DatasyncValue(.string("alice@example.com")),
      "roles": DatasyncValue(tree(#"{"editor": true}"#)),
    ])

  static let now = Date(timeIntervalSince1970: 1_700_000_000)

  /// A rules document with `expression` as the `.validate` rule of `/users/$uid`.
  static func document(validating expression: String) -> String {
    let escaped = String(decoding: JSONValue.string(expression).jsonData(), as: UTF8.self)
    return #"{"rules": {"users": {"$uid": {".validate": "# + escaped + "}}}}"
  }

  /// What evaluating an expression gave.
  enum Outcome: Equatable {
    case value(Bool)
    /// The evaluation failed (the rule is false); the message contains this text.
    case failure(String)
    /// The expression does not parse; the error names this column and contains this text.
    case syntaxError(column: Int, String)
  }

  /// Compiles `expression` as the `.validate` rule of `/users/$uid` and evaluates it at
  /// `/users/alice` between ``oldRoot`` and ``newRoot``.
  static func evaluate(_ expression: String, auth: DatasyncAuthentication? = alice) -> Outcome {
    let rules: DatasyncRules
    do {
      rules = try DatasyncRules(json: document(validating: expression))
    } catch {
      return syntaxOutcome(error)
    }
    let rule = rules.root.child("users")!.child("alice")!.validate!
    let location: [WebcomKey] = ["users", "alice"]
    let evaluator = RuleEvaluator(
      context: RuleContext(
        auth: auth, now: WebcomDate(now).milliseconds!, oldRoot: oldRoot, newRoot: newRoot),
      location: location, depth: 2, data: oldRoot.value(at: location),
      newData: newRoot.value(at: location))
    do {
      return .value(try evaluator.boolean(rule.condition))
    } catch {
      return .failure(error.message)
    }
  }

  /// The column and the message of a syntax error, as a partial ``Outcome`` for comparisons.
  static func syntaxOutcome(_ error: WebcomError) -> Outcome {
    guard error.code == .invalidArgument,
      let columnRange = error.message.range(of: "at column "),
      let column = Int(error.message[columnRange.upperBound...].prefix { $0.isNumber })
    else { return .failure("unexpected error: \(error)") }
    return .syntaxError(column: column, error.message)
  }
}

extension RulesFixture.Outcome {
  /// Whether this outcome is the expected one: values equal, failures and syntax errors (same
  /// column) whose message contains the expected text.
  func matches(_ expected: RulesFixture.Outcome) -> Bool {
    switch (self, expected) {
    case (.value(let lhs), .value(let rhs)): lhs == rhs
    case (.failure(let message), .failure(let text)): message.contains(text)
    case (.syntaxError(let column, let message), .syntaxError(let expectedColumn, let text)):
      column == expectedColumn && message.contains(text)
    default: false
    }
  }
}

/// The error of compiling a rules document, or `nil` when it compiles.
func rulesError(_ json: String) -> WebcomError? {
  do {
    _ = try DatasyncRules(json: json)
    return nil
  } catch {
    return error
  }
}
