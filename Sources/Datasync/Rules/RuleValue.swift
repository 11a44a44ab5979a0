/// A value computed while evaluating a rule expression.
enum RuleValue: Sendable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  /// A node of the tree before or after the operation.
  case snapshot(RuleSnapshot)
  /// `auth` of an authenticated client.
  case authentication(DatasyncAuthentication)
  /// A claim that is an object (or `auth.token` itself), read with member access.
  case object(JSONValue)
  /// What `val()` gives for a node with children: equal to nothing, as the hosted service's
  /// sentinel (children are read with `child()`).
  case children

  /// The value of a stored scalar, or of a claim.
  init(_ value: JSONValue) {
    switch value {
    case .null: self = .null
    case .bool(let bool): self = .bool(bool)
    case .int(let int): self = .int(int)
    case .double(let double): self = .double(double)
    case .string(let string): self = .string(string)
    case .object: self = .object(value)
    }
  }

  /// The kind of the value with an article, for messages.
  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .int, .double: "a number"
    case .string: "a string"
    case .snapshot: "a snapshot"
    case .authentication, .object: "an object"
    case .children: "the value of a node with children"
    }
  }
}
