/// A parsed, type-checked rule expression, evaluated by ``RuleEvaluator``.
///
/// The parser resolves names when it builds the tree: `$` variables become the depth of the key
/// they capture, `auth.uid`, `auth.provider` and `auth.token` become dedicated nodes, literal
/// paths of `child()`, `hasChild()` and `hasChildren()` are split into validated keys once.
indirect enum RuleExpression: Sendable {
  /// A literal: null, a Boolean, a number or a string.
  case literal(RuleValue)
  /// `auth`: null or the authentication.
  case auth
  /// `auth.uid`.
  case authUID
  /// `auth.provider`.
  case authProvider
  /// `auth.token`.
  case authToken
  /// A member of a claim object, `auth.token.a.b`.
  case property(RuleExpression, WebcomKey)
  /// `now`, milliseconds since 1970.
  case now
  /// `root`, `data` or `newData`.
  case snapshot(SnapshotRoot)
  /// A `$` variable: the key of the location at this depth (0 for the first key).
  case variable(depth: Int)
  /// `!operand`.
  case not(RuleExpression)
  /// `-operand`.
  case negate(RuleExpression)
  /// `a && b && …`, evaluated from the left until one is false.
  case all([RuleExpression])
  /// `a || b || …`, evaluated from the left until one is true.
  case any([RuleExpression])
  /// `condition ? then : else`.
  case conditional(RuleExpression, RuleExpression, RuleExpression)
  /// An arithmetic or comparison operator.
  case binary(BinaryOperator, RuleExpression, RuleExpression)
  /// A method of a snapshot.
  case snapshotMethod(RuleExpression, SnapshotMethod)
  /// A method or property of a string.
  case stringMethod(RuleExpression, StringMethod)

  /// The snapshots a rule starts from.
  enum SnapshotRoot: Sendable {
    /// The root of the tree before the operation.
    case root
    /// The rule's location before the operation.
    case data
    /// The rule's location as it would be after the operation.
    case newData
  }

  enum BinaryOperator: Sendable {
    case equal
    case notEqual
    case less
    case lessOrEqual
    case greater
    case greaterOrEqual
    case add
    case subtract
    case multiply
    case divide
    case remainder
  }

  /// The argument of a method taking a relative path.
  enum PathArgument: Sendable {
    /// A literal path, split into keys when parsed.
    case keys([WebcomKey])
    /// A path computed at evaluation.
    case expression(RuleExpression)
  }

  enum SnapshotMethod: Sendable {
    case child(PathArgument)
    case parent
    case hasChild(PathArgument)
    /// `hasChildren()` (`nil`: any child) or `hasChildren([…])` (all of them).
    case hasChildren([PathArgument]?)
    case exists
    case val
    case isNumber
    case isString
    case isBoolean
  }

  enum StringMethod: Sendable {
    case length
    case contains(RuleExpression)
    case beginsWith(RuleExpression)
    case endsWith(RuleExpression)
    case replace(RuleExpression, RuleExpression)
    case toLowerCase
    case toUpperCase
    case matches(RuleRegex)
  }
}
