/// Parses and type-checks one rule expression.
///
/// Grammar, from the loosest operator to the tightest: `?:`, `||`, `&&`, `== === != !==`,
/// `< <= > >=`, `+ -`, `* / %`, unary `! -`, then member access and calls; `==` and `===` are
/// the same strict equality (as `!=` and `!==`). Every name is resolved and every type that can
/// be known is checked here, so that a misspelt method, a comparison of a snapshot or a string
/// where a Boolean is needed is a syntax error with its position rather than a rule that is
/// always false.
///
/// Limits (each a syntax error): an expression is at most ``maximumLength`` UTF-8 bytes; it
/// nests (parentheses, operators, arguments) at most ``maximumDepth`` levels; a chain of
/// snapshot methods (`data.child('a').parent().child('b')…`) has at most ``maximumChain`` calls.
struct RuleParser {
  /// The longest expression, in UTF-8 bytes.
  static let maximumLength = 16_384
  /// The deepest nesting of an expression.
  static let maximumDepth = 64
  /// The longest chain of snapshot methods.
  static let maximumChain = 32

  /// What the parser knows of a value's type.
  enum StaticType: Equatable {
    case boolean
    case number
    case string
    case null
    case snapshot
    /// `auth`: null or an object with `uid`, `provider` and `token`.
    case auth
    /// `auth.token`: an object of claims.
    case claims
    /// A claim: any JSON value, objects read with member access.
    case claim
    /// A value known only at evaluation: a string, a number, a Boolean, null or the value of a
    /// node with children (`val()`, mixed branches of `?:` or `+`).
    case primitive

    var description: String {
      switch self {
      case .boolean: "a boolean"
      case .number: "a number"
      case .string: "a string"
      case .null: "null"
      case .snapshot: "a snapshot"
      case .auth: "auth"
      case .claims: "auth.token"
      case .claim: "a claim"
      case .primitive: "a value"
      }
    }

    /// Whether the value may be a Boolean at evaluation.
    var mayBeBoolean: Bool { [.boolean, .claim, .primitive].contains(self) }
    /// Whether the value may be a number at evaluation.
    var mayBeNumber: Bool { [.number, .claim, .primitive].contains(self) }
    /// Whether the value may be a string at evaluation.
    var mayBeString: Bool { [.string, .claim, .primitive].contains(self) }
  }

  /// A parsed expression with its static type, its height and, for snapshots, the length of the
  /// chain of methods that produced it.
  struct Typed {
    var expression: RuleExpression
    var type: StaticType
    var height: Int = 1
    var chain: Int = 0
    /// For a string joined with `+` from a string: the operands, left to right.
    var joined: [Typed]? = nil
    /// For a snapshot reached from `root`, `data` or `newData` with `child()` calls only: where
    /// it starts and the paths of the calls.
    var reached: (start: RuleExpression.SnapshotRoot, paths: [RuleExpression.PathArgument])? = nil
  }

  var lexer: RuleLexer
  var token: RuleToken
  let variables: [String: Int]
  let allowsNewData: Bool

  private init(_ text: String, variables: [String: Int], allowsNewData: Bool)
    throws(RuleSyntaxError)
  {
    lexer = RuleLexer(text)
    token = RuleToken(kind: .end, offset: 0)
    self.variables = variables
    self.allowsNewData = allowsNewData
    token = try lexer.next()
  }

  /// Parses a Boolean rule expression.
  ///
  /// - Parameters:
  ///   - text: The expression.
  ///   - variables: The `$` variables of the rule's location (names without `$`), each with the
  ///     depth of the key it captures.
  ///   - allowsNewData: Whether `newData` may be used (not in `.read` rules).
  /// - Throws: ``RuleSyntaxError`` with the offset of the culprit and what was expected.
  static func parse(_ text: String, variables: [String: Int], allowsNewData: Bool)
    throws(RuleSyntaxError) -> RuleExpression
  {
    guard text.utf8.count <= maximumLength else {
      throw RuleSyntaxError(
        offset: 0,
        message: "the expression is \(text.utf8.count) UTF-8 bytes long, more than the limit of "
          + "\(maximumLength)")
    }
    var parser = try RuleParser(text, variables: variables, allowsNewData: allowsNewData)
    let typed = try parser.parseConditional(nesting: 0)
    guard case .end = parser.token.kind else {
      throw RuleSyntaxError(
        offset: parser.token.offset,
        message: "expected an operator or the end of the expression, found "
          + parser.token.spelling)
    }
    guard typed.type.mayBeBoolean else {
      throw RuleSyntaxError(
        offset: 0,
        message: "a rule must be a boolean expression, this one is \(typed.type.description)")
    }
    return typed.expression
  }

  // MARK: - Tokens

  mutating func advance() throws(RuleSyntaxError) {
    token = try lexer.next()
  }

  func isSymbol(_ symbol: RuleToken.Symbol) -> Bool {
    if case .symbol(symbol) = token.kind { return true }
    return false
  }

  mutating func expect(_ symbol: RuleToken.Symbol, _ context: String)
    throws(RuleSyntaxError)
  {
    guard isSymbol(symbol) else {
      throw RuleSyntaxError(
        offset: token.offset,
        message: "expected \"\(symbol.rawValue)\" \(context), found \(token.spelling)")
    }
    try advance()
  }

  private func checkNesting(_ nesting: Int) throws(RuleSyntaxError) {
    guard nesting <= Self.maximumDepth else {
      throw RuleSyntaxError(
        offset: token.offset,
        message: "the expression is nested more than \(Self.maximumDepth) levels deep")
    }
  }

  /// A node over `children`, checking the height limit.
  func node(
    _ expression: RuleExpression, _ type: StaticType, over children: [Typed], at offset: Int
  ) throws(RuleSyntaxError) -> Typed {
    let height = 1 + (children.map(\.height).max() ?? 0)
    guard height <= Self.maximumDepth else {
      throw RuleSyntaxError(
        offset: offset,
        message: "the expression is nested more than \(Self.maximumDepth) levels deep")
    }
    return Typed(expression: expression, type: type, height: height)
  }

  // MARK: - Operators

  mutating func parseConditional(nesting: Int) throws(RuleSyntaxError) -> Typed {
    try checkNesting(nesting)
    let condition = try parseOr(nesting: nesting)
    guard isSymbol(.question) else { return condition }
    let offset = token.offset
    guard condition.type.mayBeBoolean else {
      throw RuleSyntaxError(
        offset: offset,
        message: "the condition of ?: must be a boolean, this one is \(condition.type.description)")
    }
    try advance()
    let then = try parseConditional(nesting: nesting + 1)
    try expect(.colon, "between the branches of ?:")
    let otherwise = try parseConditional(nesting: nesting + 1)
    let type: StaticType
    if then.type == otherwise.type {
      type = then.type
    } else if [then.type, otherwise.type].contains(where: {
      [.snapshot, .auth, .claims].contains($0)
    }) {
      throw RuleSyntaxError(
        offset: offset,
        message: "the branches of ?: are \(then.type.description) and "
          + "\(otherwise.type.description): a snapshot or auth may only meet its own kind")
    } else {
      type = .primitive
    }
    var result = try node(
      .conditional(condition.expression, then.expression, otherwise.expression), type,
      over: [condition, then, otherwise], at: offset)
    if type == .snapshot { result.chain = max(then.chain, otherwise.chain) }
    return result
  }

  private mutating func parseOr(nesting: Int) throws(RuleSyntaxError) -> Typed {
    try parseLogical(.or, nesting: nesting)
  }

  private mutating func parseLogical(_ symbol: RuleToken.Symbol, nesting: Int)
    throws(RuleSyntaxError) -> Typed
  {
    let first =
      symbol == .or ? try parseLogical(.and, nesting: nesting) : try parseEquality(nesting: nesting)
    guard isSymbol(symbol) else { return first }
    let firstOffset = token.offset
    var operands = [first]
    while isSymbol(symbol) {
      let offset = token.offset
      try advance()
      operands.append(
        symbol == .or
          ? try parseLogical(.and, nesting: nesting) : try parseEquality(nesting: nesting))
      for operand in operands.suffix(2) where !operand.type.mayBeBoolean {
        throw RuleSyntaxError(
          offset: offset,
          message: "the operands of \(symbol.rawValue) must be booleans, one is "
            + operand.type.description)
      }
    }
    let expressions = operands.map(\.expression)
    return try node(
      symbol == .or ? .any(expressions) : .all(expressions), .boolean, over: operands,
      at: firstOffset)
  }

  private mutating func parseEquality(nesting: Int) throws(RuleSyntaxError) -> Typed {
    var left = try parseRelational(nesting: nesting)
    while case .symbol(let symbol) = token.kind,
      [.equal, .strictEqual, .notEqual, .strictNotEqual].contains(symbol)
    {
      let offset = token.offset
      try advance()
      let right = try parseRelational(nesting: nesting)
      for operand in [left, right] where [.snapshot].contains(operand.type) {
        throw RuleSyntaxError(
          offset: offset,
          message: "cannot compare a snapshot with \(symbol.rawValue): compare its val(), or call "
            + "exists()")
      }
      let isEqual = symbol == .equal || symbol == .strictEqual
      switch (left.expression, right.expression) {
      case (.auth, .literal(.null)), (.literal(.null), .auth):
        left = try node(
          isEqual ? .not(.isAuthenticated) : .isAuthenticated, .boolean, over: [left, right],
          at: offset)
      default:
        left = try node(
          .binary(isEqual ? .equal : .notEqual, left.expression, right.expression), .boolean,
          over: [left, right], at: offset)
      }
    }
    return left
  }

  private mutating func parseRelational(nesting: Int) throws(RuleSyntaxError) -> Typed {
    var left = try parseAdditive(nesting: nesting)
    while case .symbol(let symbol) = token.kind,
      [.less, .lessOrEqual, .greater, .greaterOrEqual].contains(symbol)
    {
      let offset = token.offset
      try advance()
      let right = try parseAdditive(nesting: nesting)
      for operand in [left, right] where !operand.type.mayBeNumber && !operand.type.mayBeString {
        throw RuleSyntaxError(
          offset: offset,
          message: "\(symbol.rawValue) compares numbers or strings, not \(operand.type.description)"
        )
      }
      if [left.type, right.type].allSatisfy({ $0 == .number || $0 == .string }),
        left.type != right.type
      {
        throw RuleSyntaxError(
          offset: offset,
          message: "\(symbol.rawValue) cannot compare \(left.type.description) with "
            + right.type.description)
      }
      let operation: RuleExpression.BinaryOperator =
        switch symbol {
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        default: .greaterOrEqual
        }
      left = try node(
        .binary(operation, left.expression, right.expression), .boolean, over: [left, right],
        at: offset)
    }
    return left
  }

  private mutating func parseAdditive(nesting: Int) throws(RuleSyntaxError) -> Typed {
    var left = try parseMultiplicative(nesting: nesting)
    while case .symbol(let symbol) = token.kind, symbol == .plus || symbol == .minus {
      let offset = token.offset
      try advance()
      let right = try parseMultiplicative(nesting: nesting)
      if symbol == .plus {
        for operand in [left, right] where !operand.type.mayBeNumber && !operand.type.mayBeString {
          throw RuleSyntaxError(
            offset: offset,
            message: "+ adds numbers or joins strings, not \(operand.type.description)")
        }
        let type: StaticType =
          left.type == .string || right.type == .string
          ? .string : left.type == .number && right.type == .number ? .number : .primitive
        let joined = left.type == .string ? (left.joined ?? [left]) + [right] : nil
        left = try node(
          .binary(.add, left.expression, right.expression), type, over: [left, right], at: offset)
        left.joined = joined
      } else {
        left = try arithmetic(.subtract, symbol, left, right, at: offset)
      }
    }
    return left
  }

  private mutating func parseMultiplicative(nesting: Int) throws(RuleSyntaxError) -> Typed {
    var left = try parseUnary(nesting: nesting)
    while case .symbol(let symbol) = token.kind, [.times, .slash, .percent].contains(symbol) {
      let offset = token.offset
      try advance()
      let right = try parseUnary(nesting: nesting)
      let operation: RuleExpression.BinaryOperator =
        switch symbol {
        case .times: .multiply
        case .slash: .divide
        default: .remainder
        }
      left = try arithmetic(operation, symbol, left, right, at: offset)
    }
    return left
  }

  private func arithmetic(
    _ operation: RuleExpression.BinaryOperator, _ symbol: RuleToken.Symbol, _ left: Typed,
    _ right: Typed, at offset: Int
  ) throws(RuleSyntaxError) -> Typed {
    for operand in [left, right] where !operand.type.mayBeNumber {
      throw RuleSyntaxError(
        offset: offset,
        message: "\(symbol.rawValue) needs numbers, not \(operand.type.description)")
    }
    return try node(
      .binary(operation, left.expression, right.expression), .number, over: [left, right],
      at: offset)
  }

  private mutating func parseUnary(nesting: Int) throws(RuleSyntaxError) -> Typed {
    let offset = token.offset
    if isSymbol(.not) {
      try checkNesting(nesting + 1)
      try advance()
      let operand = try parseUnary(nesting: nesting + 1)
      guard operand.type.mayBeBoolean else {
        throw RuleSyntaxError(
          offset: offset, message: "! needs a boolean, not \(operand.type.description)")
      }
      return try node(.not(operand.expression), .boolean, over: [operand], at: offset)
    }
    if isSymbol(.minus) {
      try checkNesting(nesting + 1)
      try advance()
      let operand = try parseUnary(nesting: nesting + 1)
      guard operand.type.mayBeNumber else {
        throw RuleSyntaxError(
          offset: offset, message: "- needs a number, not \(operand.type.description)")
      }
      return try node(.negate(operand.expression), .number, over: [operand], at: offset)
    }
    return try parsePostfix(nesting: nesting)
  }
}
