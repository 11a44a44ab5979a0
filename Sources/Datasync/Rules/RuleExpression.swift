/// A parsed, type-checked rule expression, compiled by ``RuleCompiler`` when the rules are created.
///
/// The parser resolves names when it builds the tree: `$` variables become the depth of the key
/// they capture, `auth.uid`, `auth.provider` and `auth.token` become dedicated nodes, literal
/// paths of `child()`, `hasChild()` and `hasChildren()` are split into validated keys once.
indirect enum RuleExpression: Sendable {
  /// A literal: null, a Boolean, a number or a string.
  case literal(RuleValue)
  /// `auth`: null or the authentication.
  case auth
  /// `auth != null`.
  case isAuthenticated
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
  /// `root`, `data` or `newData`, `child()` calls with these paths, then a method other than
  /// `child()` and `parent()`: read without building the snapshots on the way.
  case read(SnapshotRoot, [PathArgument], SnapshotMethod)
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
    /// A path joined from a string and more parts with `+` (`'users/' + auth.uid`), read
    /// without joining them.
    case concatenation([PathPart])
  }

  /// A part of a joined path.
  enum PathPart: Sendable {
    case literal(PathLiteral)
    /// A string or a number computed at evaluation.
    case expression(RuleExpression)
  }

  /// A text of a path split at its slashes.
  struct PathLiteral: Sendable {
    /// The text before the first slash (all of it when there is none).
    let head: String
    /// The non-empty segments between the first and the last slash, as keys.
    let keys: [WebcomKey]
    /// The text after the last slash, `nil` when there is no slash.
    let tail: String?

    /// Splits `text`; a failure names a segment between slashes that is not a valid key.
    static func make(_ text: String) -> Result<PathLiteral, RuleFailure> {
      let segments = text.utf8.split(
        separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
      guard segments.count > 1 else {
        return .success(PathLiteral(head: text, keys: [], tail: nil))
      }
      var keys: [WebcomKey] = []
      for segment in segments.dropFirst().dropLast() where !segment.isEmpty {
        let key = String(decoding: segment, as: UTF8.self)
        if let reason = WebcomKey.invalidityReason(of: segment) {
          return .failure(
            RuleFailure(
              message: "the path segment \(WebcomKey.quoted(key)) is not a valid key: \(reason)"))
        }
        keys.append(WebcomKey(key))
      }
      return .success(
        PathLiteral(
          head: String(decoding: segments.first!, as: UTF8.self), keys: keys,
          tail: String(decoding: segments.last!, as: UTF8.self)))
    }
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

extension RuleExpression {
  /// Whether the expression reads the snapshot `root` (`root`, `data` or `newData`).
  func mentions(_ root: SnapshotRoot) -> Bool {
    switch self {
    case .literal, .auth, .isAuthenticated, .authUID, .authProvider, .authToken, .now, .variable:
      return false
    case .snapshot(let start):
      return start == root
    case .read(let start, let paths, let method):
      return start == root || paths.contains { $0.mentions(root) } || method.mentions(root)
    case .property(let base, _), .not(let base), .negate(let base):
      return base.mentions(root)
    case .all(let operands), .any(let operands):
      return operands.contains { $0.mentions(root) }
    case .conditional(let condition, let then, let otherwise):
      return condition.mentions(root) || then.mentions(root) || otherwise.mentions(root)
    case .binary(_, let left, let right):
      return left.mentions(root) || right.mentions(root)
    case .snapshotMethod(let base, let method):
      return base.mentions(root) || method.mentions(root)
    case .stringMethod(let base, let method):
      return base.mentions(root) || method.mentions(root)
    }
  }
}

extension RuleExpression.PathArgument {
  fileprivate func mentions(_ root: RuleExpression.SnapshotRoot) -> Bool {
    switch self {
    case .keys: false
    case .expression(let expression): expression.mentions(root)
    case .concatenation(let parts):
      parts.contains {
        if case .expression(let expression) = $0 { return expression.mentions(root) }
        return false
      }
    }
  }
}

extension RuleExpression.SnapshotMethod {
  fileprivate func mentions(_ root: RuleExpression.SnapshotRoot) -> Bool {
    switch self {
    case .child(let path), .hasChild(let path): path.mentions(root)
    case .hasChildren(let paths): paths?.contains { $0.mentions(root) } ?? false
    case .parent, .exists, .val, .isNumber, .isString, .isBoolean: false
    }
  }
}

extension RuleExpression.StringMethod {
  fileprivate func mentions(_ root: RuleExpression.SnapshotRoot) -> Bool {
    switch self {
    case .contains(let argument), .beginsWith(let argument), .endsWith(let argument):
      argument.mentions(root)
    case .replace(let pattern, let replacement):
      pattern.mentions(root) || replacement.mentions(root)
    case .length, .toLowerCase, .toUpperCase, .matches: false
    }
  }
}
