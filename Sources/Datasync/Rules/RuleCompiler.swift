/// Compiles a parsed ``RuleExpression`` into a tree of closures, once, when the rules are created.
///
/// A compiled expression does what walking the expression at each evaluation would do, with the
/// semantics ``RuleEvaluator`` states, without deciding again at each evaluation what each node
/// of the expression is: a rule is checked at every write it applies to. Sub-expressions used as
/// conditions (`&&`, `||`, `!`, `?:`, comparisons) give a Boolean without wrapping it in a
/// ``RuleValue``, and literal paths are read without building anything.
enum RuleCompiler {
  /// A compiled expression: its value at a location.
  typealias Value = @Sendable (RuleEvaluator) throws(RuleFailure) -> RuleValue
  /// A compiled expression whose value must be a Boolean.
  typealias Condition = @Sendable (RuleEvaluator) throws(RuleFailure) -> Bool

  /// The expression as a condition: its Boolean value; a value of another type is a failure.
  static func condition(_ expression: RuleExpression) -> Condition {
    switch expression {
    case .literal(.bool(let bool)):
      return { _ in bool }
    case .isAuthenticated:
      return { evaluator in evaluator.context.auth != nil }
    case .not(let operand):
      let operand = condition(operand)
      return { evaluator throws(RuleFailure) in try !operand(evaluator) }
    case .all(let operands):
      return all(operands[...])
    case .any(let operands):
      return any(operands[...])
    case .conditional(let test, let then, let otherwise):
      let (test, then, otherwise) = (condition(test), condition(then), condition(otherwise))
      return { evaluator throws(RuleFailure) in
        try test(evaluator) ? try then(evaluator) : try otherwise(evaluator)
      }
    case .binary(let operation, let left, let right):
      guard let comparison = comparison(operation) else { break }
      let (left, right) = (value(left), value(right))
      return { evaluator throws(RuleFailure) in
        try comparison(try left(evaluator), try right(evaluator))
      }
    case .read(let start, let paths, let method):
      guard let test = booleanTest(method) else { break }
      // `data`, `newData` or `root` itself is tested without a call to read it.
      guard !paths.isEmpty else { return { evaluator in test(evaluator.start(start).value) } }
      let node = read(from: start, through: paths)
      return { evaluator throws(RuleFailure) in test(try node(evaluator)) }
    default:
      break
    }
    let value = value(expression)
    return { evaluator throws(RuleFailure) in
      let result = try value(evaluator)
      guard case .bool(let bool) = result else {
        throw RuleFailure(message: "expected a boolean, found \(result.kindDescription)")
      }
      return bool
    }
  }

  // The operands of `&&` and `||` are chained, not kept in an array (a closure read from an array
  // is called through a thunk that adapts it to the array's generic representation), in a
  // balanced tree: a chain of thousands of operands nests only a dozen calls.

  /// `a && b && …`, evaluated from the left until one is false.
  private static func all(_ operands: ArraySlice<RuleExpression>) -> Condition {
    guard let operand = operands.first else { return { _ in true } }
    guard operands.count > 1 else { return condition(operand) }
    let middle = operands.startIndex + operands.count / 2
    let (first, second) = (all(operands[..<middle]), all(operands[middle...]))
    return { evaluator throws(RuleFailure) in try first(evaluator) ? try second(evaluator) : false }
  }

  /// `a || b || …`, evaluated from the left until one is true.
  private static func any(_ operands: ArraySlice<RuleExpression>) -> Condition {
    guard let operand = operands.first else { return { _ in false } }
    guard operands.count > 1 else { return condition(operand) }
    let middle = operands.startIndex + operands.count / 2
    let (first, second) = (any(operands[..<middle]), any(operands[middle...]))
    return { evaluator throws(RuleFailure) in try first(evaluator) ? true : try second(evaluator) }
  }

  /// The expression's value.
  static func value(_ expression: RuleExpression) -> Value {
    switch expression {
    case .literal(let value):
      return { _ in value }
    case .auth:
      return { evaluator in evaluator.context.auth.map(RuleValue.authentication) ?? .null }
    case .authUID:
      return { evaluator throws(RuleFailure) in .string(try evaluator.authentication("uid").uid) }
    case .authProvider:
      return { evaluator throws(RuleFailure) in
        .string(try evaluator.authentication("provider").provider)
      }
    case .authToken:
      return { evaluator throws(RuleFailure) in
        .object(try evaluator.authentication("token").token)
      }
    case .property(let base, let key):
      let base = value(base)
      return { evaluator throws(RuleFailure) in
        let value = try base(evaluator)
        guard case .object(let object) = value else {
          throw RuleFailure(message: "cannot read \"\(key)\" of \(value.kindDescription)")
        }
        return RuleValue(object[key])
      }
    case .now:
      return { evaluator in .int(evaluator.context.now) }
    case .snapshot(let start):
      return { evaluator in .snapshot(evaluator.snapshot(start)) }
    case .variable(let depth):
      return { evaluator in .string(evaluator.location[depth].value) }
    case .isAuthenticated, .not, .all, .any:
      let condition = condition(expression)
      return { evaluator throws(RuleFailure) in .bool(try condition(evaluator)) }
    case .negate(let operand):
      let operand = value(operand)
      return { evaluator throws(RuleFailure) in
        switch try RuleEvaluator.number(try operand(evaluator), for: "-") {
        case .int(let int) where int != .min: .int(-int)
        case .int(let int): .double(-Double(int))
        case .double(let double): .double(-double)
        }
      }
    case .conditional(let test, let then, let otherwise):
      let (test, then, otherwise) = (condition(test), value(then), value(otherwise))
      return { evaluator throws(RuleFailure) in
        try test(evaluator) ? try then(evaluator) : try otherwise(evaluator)
      }
    case .binary(let operation, let left, let right):
      let (left, right) = (value(left), value(right))
      if let comparison = comparison(operation) {
        return { evaluator throws(RuleFailure) in
          .bool(try comparison(try left(evaluator), try right(evaluator)))
        }
      }
      return { evaluator throws(RuleFailure) in
        try RuleEvaluator.arithmetic(operation, try left(evaluator), try right(evaluator))
      }
    case .snapshotMethod(let base, let method):
      let base = value(base)
      let method = snapshotMethod(method)
      return { evaluator throws(RuleFailure) in
        let value = try base(evaluator)
        guard case .snapshot(let snapshot) = value else {
          throw RuleFailure(message: "expected a snapshot, found \(value.kindDescription)")
        }
        return try method(evaluator, snapshot)
      }
    case .read(let start, let paths, let method):
      let test = test(method)
      guard !paths.isEmpty else {
        return { evaluator throws(RuleFailure) in
          try test(evaluator, evaluator.start(start).value)
        }
      }
      let node = read(from: start, through: paths)
      return { evaluator throws(RuleFailure) in try test(evaluator, try node(evaluator)) }
    case .stringMethod(let base, let method):
      let base = value(base)
      let apply = stringMethod(method)
      return { evaluator throws(RuleFailure) in
        let value = try base(evaluator)
        guard case .string(let string) = value else {
          throw RuleFailure(
            message: "\(method.name) needs a string, found \(value.kindDescription)")
        }
        return try apply(evaluator, string)
      }
    }
  }

  /// The comparison an operator makes, `nil` for arithmetic.
  private static func comparison(_ operation: RuleExpression.BinaryOperator)
    -> (@Sendable (RuleValue, RuleValue) throws(RuleFailure) -> Bool)?
  {
    switch operation {
    case .equal: { left, right in RuleEvaluator.equals(left, right) }
    case .notEqual: { left, right in !RuleEvaluator.equals(left, right) }
    case .less: { left, right throws(RuleFailure) in try RuleEvaluator.order(left, right, "<") < 0 }
    case .lessOrEqual:
      { left, right throws(RuleFailure) in try RuleEvaluator.order(left, right, "<=") <= 0 }
    case .greater:
      { left, right throws(RuleFailure) in try RuleEvaluator.order(left, right, ">") > 0 }
    case .greaterOrEqual:
      { left, right throws(RuleFailure) in try RuleEvaluator.order(left, right, ">=") >= 0 }
    case .add, .subtract, .multiply, .divide, .remainder: nil
    }
  }
}
