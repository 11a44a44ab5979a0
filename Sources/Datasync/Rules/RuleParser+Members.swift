extension RuleParser {
  // MARK: - Members, calls and primaries

  mutating func parsePostfix(nesting: Int) throws(RuleSyntaxError) -> Typed {
    var base = try parsePrimary(nesting: nesting)
    while isSymbol(.dot) {
      try advance()
      guard case .identifier(let name) = token.kind else {
        throw RuleSyntaxError(
          offset: token.offset,
          message: "expected a member name after \".\", found \(token.spelling)")
      }
      let offset = token.offset
      try advance()
      base = try member(name, of: base, at: offset, nesting: nesting)
    }
    if isSymbol(.leftParenthesis) {
      throw RuleSyntaxError(
        offset: token.offset, message: "only methods can be called, and this is not one")
    }
    return base
  }

  private mutating func member(_ name: String, of base: Typed, at offset: Int, nesting: Int)
    throws(RuleSyntaxError) -> Typed
  {
    let isCall = isSymbol(.leftParenthesis)
    switch base.type {
    case .snapshot:
      guard Self.snapshotMethods.contains(name) else {
        throw RuleSyntaxError(
          offset: offset,
          message: "unknown snapshot method \"\(name)\"; expected child(), parent(), hasChild(), "
            + "hasChildren(), exists(), val(), isNumber(), isString() or isBoolean()")
      }
      guard isCall else {
        throw RuleSyntaxError(
          offset: offset, message: "\(name) is a method of snapshots: call it as \(name)()")
      }
      return try snapshotMethod(name, of: base, at: offset, nesting: nesting)
    case .string, .primitive, .claim:
      if Self.stringMembers.contains(name) {
        return try stringMember(name, of: base, at: offset, isCall: isCall, nesting: nesting)
      }
      guard base.type == .claim else {
        let hint =
          base.type == .primitive
          ? " (val() gives a primitive value: read a child with child('\(name)'))" : ""
        throw RuleSyntaxError(
          offset: offset,
          message: "unknown string member \"\(name)\"; expected length, contains(), "
            + "beginsWith(), endsWith(), replace(), toLowerCase(), toUpperCase() or matches()"
            + hint)
      }
      return try property(name, of: base, at: offset, isCall: isCall)
    case .claims:
      return try property(name, of: base, at: offset, isCall: isCall)
    case .auth:
      let expression: RuleExpression
      let type: StaticType
      switch name {
      case "uid": (expression, type) = (.authUID, .string)
      case "provider": (expression, type) = (.authProvider, .string)
      case "token": (expression, type) = (.authToken, .claims)
      default:
        throw RuleSyntaxError(
          offset: offset, message: "auth has no member \"\(name)\"; expected uid, provider or token"
        )
      }
      guard !isCall else {
        throw RuleSyntaxError(offset: offset, message: "auth.\(name) is not a method")
      }
      return try node(expression, type, over: [base], at: offset)
    case .boolean, .number, .null:
      throw RuleSyntaxError(
        offset: offset, message: "\(base.type.description) has no member \"\(name)\"")
    }
  }

  private func property(_ name: String, of base: Typed, at offset: Int, isCall: Bool)
    throws(RuleSyntaxError) -> Typed
  {
    guard !isCall else {
      throw RuleSyntaxError(offset: offset, message: "the claim \"\(name)\" is not a method")
    }
    return try node(.property(base.expression, WebcomKey(name)), .claim, over: [base], at: offset)
  }

  private static let snapshotMethods: Set<String> = [
    "child", "parent", "hasChild", "hasChildren", "exists", "val", "isNumber", "isString",
    "isBoolean",
  ]

  private static let stringMembers: Set<String> = [
    "length", "contains", "beginsWith", "endsWith", "replace", "toLowerCase", "toUpperCase",
    "matches",
  ]

  private mutating func snapshotMethod(_ name: String, of base: Typed, at offset: Int, nesting: Int)
    throws(RuleSyntaxError) -> Typed
  {
    try advance()
    let method: RuleExpression.SnapshotMethod
    var arguments: [Typed] = []
    var type = StaticType.boolean
    switch name {
    case "child", "hasChild":
      let (path, argument) = try pathArgument(of: name, nesting: nesting)
      arguments.append(argument)
      method = name == "child" ? .child(path) : .hasChild(path)
      if name == "child" { type = .snapshot }
    case "hasChildren":
      if isSymbol(.leftBracket) {
        let (paths, elements) = try pathArray(nesting: nesting)
        arguments += elements
        method = .hasChildren(paths)
      } else if isSymbol(.rightParenthesis) {
        method = .hasChildren(nil)
      } else {
        throw RuleSyntaxError(
          offset: token.offset,
          message: "hasChildren() takes no argument or an array of paths such as ['name', 'age']")
      }
    case "parent":
      method = .parent
      type = .snapshot
    case "exists": method = .exists
    case "val":
      method = .val
      type = .primitive
    case "isNumber": method = .isNumber
    case "isString": method = .isString
    default: method = .isBoolean
    }
    try expect(.rightParenthesis, "to close the arguments of \(name)()")
    let expression: RuleExpression
    switch (base.reached, method) {
    case (nil, _), (_, .child), (_, .parent):
      expression = .snapshotMethod(base.expression, method)
    case (.some(let reached), _):
      expression = .read(reached.start, reached.paths, method)
    }
    var result = try node(expression, type, over: [base] + arguments, at: offset)
    if case .child(let path) = method, let reached = base.reached {
      result.reached = (reached.start, reached.paths + [path])
    }
    if type == .snapshot {
      result.chain = base.chain + 1
      guard result.chain <= Self.maximumChain else {
        throw RuleSyntaxError(
          offset: offset,
          message: "the chain of snapshot methods is longer than \(Self.maximumChain) calls")
      }
    }
    return result
  }

  /// Parses the path argument of `child()` or `hasChild()`.
  private mutating func pathArgument(of name: String, nesting: Int)
    throws(RuleSyntaxError) -> (RuleExpression.PathArgument, Typed)
  {
    let offset = token.offset
    guard !isSymbol(.rightParenthesis) else {
      throw RuleSyntaxError(offset: offset, message: "\(name)() needs a path argument")
    }
    let argument = try parseConditional(nesting: nesting + 1)
    if isSymbol(.comma) {
      throw RuleSyntaxError(offset: token.offset, message: "\(name)() takes one argument")
    }
    return (try path(argument, at: offset), argument)
  }

  /// Parses the array argument of `hasChildren()`.
  private mutating func pathArray(nesting: Int)
    throws(RuleSyntaxError) -> ([RuleExpression.PathArgument], [Typed])
  {
    try advance()
    var paths: [RuleExpression.PathArgument] = []
    var elements: [Typed] = []
    while !isSymbol(.rightBracket) {
      if !elements.isEmpty { try expect(.comma, "between the elements of the array") }
      let offset = token.offset
      let element = try parseConditional(nesting: nesting + 1)
      paths.append(try path(element, at: offset))
      elements.append(element)
    }
    try advance()
    return (paths, elements)
  }

  /// A path argument: split into keys when it is a literal.
  func path(_ argument: Typed, at offset: Int) throws(RuleSyntaxError)
    -> RuleExpression.PathArgument
  {
    guard argument.type.mayBeString else {
      throw RuleSyntaxError(
        offset: offset, message: "a path must be a string, not \(argument.type.description)")
    }
    if case .literal(.string(let text)) = argument.expression {
      switch RuleEvaluator.keys(ofPath: text) {
      case .success(let keys): return .keys(keys)
      case .failure(let failure): throw RuleSyntaxError(offset: offset, message: failure.message)
      }
    }
    guard let joined = argument.joined else { return .expression(argument.expression) }
    var parts: [RuleExpression.PathPart] = []
    for operand in joined {
      guard case .literal(.string(let text)) = operand.expression else {
        parts.append(.expression(operand.expression))
        continue
      }
      switch RuleExpression.PathLiteral.make(text) {
      case .success(let literal): parts.append(.literal(literal))
      case .failure(let failure): throw RuleSyntaxError(offset: offset, message: failure.message)
      }
    }
    return .concatenation(parts)
  }

  private mutating func stringMember(
    _ name: String, of base: Typed, at offset: Int, isCall: Bool, nesting: Int
  ) throws(RuleSyntaxError) -> Typed {
    if name == "length" {
      guard !isCall else {
        throw RuleSyntaxError(offset: offset, message: "length is a property: write it without ()")
      }
      return try node(.stringMethod(base.expression, .length), .number, over: [base], at: offset)
    }
    guard isCall else {
      throw RuleSyntaxError(
        offset: offset, message: "\(name) is a method of strings: call it as \(name)()")
    }
    try advance()
    let method: RuleExpression.StringMethod
    var arguments: [Typed] = []
    var type = StaticType.boolean
    switch name {
    case "contains", "beginsWith", "endsWith":
      let argument = try stringArgument(of: name, nesting: nesting)
      arguments.append(argument)
      method =
        name == "contains"
        ? .contains(argument.expression)
        : name == "beginsWith" ? .beginsWith(argument.expression) : .endsWith(argument.expression)
    case "replace":
      let pattern = try stringArgument(of: name, nesting: nesting)
      try expect(.comma, "between the arguments of replace()")
      let replacement = try stringArgument(of: name, nesting: nesting)
      arguments += [pattern, replacement]
      method = .replace(pattern.expression, replacement.expression)
      type = .string
    case "toLowerCase", "toUpperCase":
      method = name == "toLowerCase" ? .toLowerCase : .toUpperCase
      type = .string
    default:
      method = .matches(try regularExpression())
    }
    try expect(.rightParenthesis, "to close the arguments of \(name)()")
    return try node(
      .stringMethod(base.expression, method), type, over: [base] + arguments, at: offset)
  }

  private mutating func stringArgument(of name: String, nesting: Int) throws(RuleSyntaxError)
    -> Typed
  {
    let offset = token.offset
    guard !isSymbol(.rightParenthesis) else {
      throw RuleSyntaxError(offset: offset, message: "\(name)() needs a string argument")
    }
    let argument = try parseConditional(nesting: nesting + 1)
    guard argument.type.mayBeString else {
      throw RuleSyntaxError(
        offset: offset,
        message: "the argument of \(name)() must be a string, not \(argument.type.description)")
    }
    return argument
  }

  private mutating func regularExpression() throws(RuleSyntaxError) -> RuleRegex {
    guard isSymbol(.slash) else {
      throw RuleSyntaxError(
        offset: token.offset,
        message: "matches() needs a regular expression literal such as /^[a-z]+$/, found "
          + token.spelling)
    }
    let literal = try lexer.regularExpression(at: token.offset)
    let regex: RuleRegex
    do {
      regex = try RuleRegex(pattern: literal.pattern, flags: literal.flags)
    } catch {
      throw RuleSyntaxError(
        offset: literal.patternOffset + error.offset,
        message: "invalid regular expression: \(error.message)")
    }
    try advance()
    return regex
  }

  // MARK: - Primaries

  private mutating func parsePrimary(nesting: Int) throws(RuleSyntaxError) -> Typed {
    let current = token
    switch current.kind {
    case .integer(let value):
      try advance()
      return Typed(expression: .literal(.int(value)), type: .number)
    case .double(let value):
      try advance()
      return Typed(expression: .literal(.double(value)), type: .number)
    case .string(let value):
      try advance()
      return Typed(expression: .literal(.string(value)), type: .string)
    case .identifier(let name):
      let typed: Typed
      switch name {
      case "true", "false":
        typed = Typed(expression: .literal(.bool(name == "true")), type: .boolean)
      case "null": typed = Typed(expression: .literal(.null), type: .null)
      case "auth": typed = Typed(expression: .auth, type: .auth)
      case "now": typed = Typed(expression: .now, type: .number)
      case "root":
        typed = Typed(expression: .snapshot(.root), type: .snapshot, reached: (.root, []))
      case "data":
        typed = Typed(expression: .snapshot(.data), type: .snapshot, reached: (.data, []))
      case "newData":
        guard allowsNewData else {
          throw RuleSyntaxError(
            offset: current.offset, message: "newData is not available in .read rules")
        }
        typed = Typed(expression: .snapshot(.newData), type: .snapshot, reached: (.newData, []))
      default:
        throw RuleSyntaxError(
          offset: current.offset,
          message: "unknown name \"\(name)\"; expected auth, now, root, data, newData, a "
            + "$variable, true, false, null, a number or a string")
      }
      try advance()
      return typed
    case .variable(let name):
      guard let depth = variables[name] else {
        throw RuleSyntaxError(
          offset: current.offset,
          message: "unknown variable $\(name): no $\(name) key on the rule's path")
      }
      try advance()
      return Typed(expression: .variable(depth: depth), type: .string)
    case .symbol(.leftParenthesis):
      try advance()
      let inner = try parseConditional(nesting: nesting + 1)
      try expect(.rightParenthesis, "to close the parenthesis")
      return inner
    case .symbol(.leftBracket):
      throw RuleSyntaxError(
        offset: current.offset, message: "an array is only allowed as the argument of hasChildren()"
      )
    case .symbol(.slash):
      throw RuleSyntaxError(
        offset: current.offset,
        message: "a regular expression is only allowed as the argument of matches()")
    case .symbol, .end:
      throw RuleSyntaxError(
        offset: current.offset, message: "expected an expression, found \(current.spelling)")
    }
  }
}
