/// The compiled forms of snapshot reads, paths and string methods.
extension RuleCompiler {
  /// A compiled relative path: its keys at a location.
  typealias Keys = @Sendable (RuleEvaluator) throws(RuleFailure) -> [WebcomKey]
  /// A compiled snapshot method other than `child()` and `parent()`, applied to a node's value.
  typealias Test = @Sendable (RuleEvaluator, JSONValue) throws(RuleFailure) -> RuleValue
  /// A compiled snapshot method applied to a snapshot.
  typealias SnapshotMethod =
    @Sendable (RuleEvaluator, RuleSnapshot) throws(RuleFailure) -> RuleValue
  /// A compiled string method or property applied to a string.
  typealias StringMethod = @Sendable (RuleEvaluator, String) throws(RuleFailure) -> RuleValue

  /// A compiled `child()` path applied to a node: moves `node` down the path and adds its number
  /// of keys to `depth`.
  ///
  /// - Throws: ``RuleFailure`` when the path fails, or when `depth` goes beyond the limit.
  typealias Descent =
    @Sendable (RuleEvaluator, inout JSONValue, inout Int) throws(RuleFailure) -> Void

  /// The node that `root`, `data` or `newData` followed by `child()` calls with `paths` reads.
  /// `paths` is not empty: `condition(_:)` and `value(_:)` read `root`, `data` or `newData`
  /// itself in the closure that uses it, without calling another.
  static func read(
    from start: RuleExpression.SnapshotRoot, through paths: [RuleExpression.PathArgument]
  ) -> @Sendable (RuleEvaluator) throws(RuleFailure) -> JSONValue {
    let descent = descent(paths[...])
    return { evaluator throws(RuleFailure) in
      var (value, depth) = evaluator.start(start)
      try descent(evaluator, &value, &depth)
      return value
    }
  }

  /// The paths one after the other. Literal paths are joined into one; the others are chained,
  /// not kept in an array (a closure read from an array is called through a thunk).
  private static func descent(_ paths: ArraySlice<RuleExpression.PathArgument>) -> Descent {
    guard let firstPath = paths.first else { return { _, _, _ in } }
    let literalCount = paths.prefix { if case .keys = $0 { true } else { false } }.count
    let first: Descent
    let rest: ArraySlice<RuleExpression.PathArgument>
    if literalCount > 0 {
      let keys = paths.prefix(literalCount).flatMap { path -> [WebcomKey] in
        guard case .keys(let keys) = path else { return [] }
        return keys
      }
      first = { _, node, depth throws(RuleFailure) in
        depth += keys.count
        guard depth <= DatasyncPath.maximumDepth else { throw tooDeep(for: "child()") }
        node = node.value(at: keys)
      }
      rest = paths.dropFirst(literalCount)
    } else {
      first = descent(firstPath)
      rest = paths.dropFirst()
    }
    guard !rest.isEmpty else { return first }
    let others = descent(rest)
    return { evaluator, node, depth throws(RuleFailure) in
      try first(evaluator, &node, &depth)
      try others(evaluator, &node, &depth)
    }
  }

  /// One path that is not literal.
  private static func descent(_ path: RuleExpression.PathArgument) -> Descent {
    if case .concatenation(let parts) = path, let segments = JoinedPath.segments(of: parts) {
      let general = descent(keys(path))
      return { evaluator, node, depth throws(RuleFailure) in
        // The keys are all computed before the depth is checked, as for the other paths.
        var descended = node
        for segment in segments {
          guard let key = try segment.key(at: evaluator) else {
            return try general(evaluator, &node, &depth)
          }
          descended = descended[key]
        }
        depth += segments.count
        guard depth <= DatasyncPath.maximumDepth else { throw tooDeep(for: "child()") }
        node = descended
      }
    }
    return descent(keys(path))
  }

  /// The path whose keys `keys` computes.
  private static func descent(_ keys: @escaping Keys) -> Descent {
    { evaluator, node, depth throws(RuleFailure) in
      let keys = try keys(evaluator)
      depth += keys.count
      guard depth <= DatasyncPath.maximumDepth else { throw tooDeep(for: "child()") }
      node = node.value(at: keys)
    }
  }

  private static func tooDeep(for method: String) -> RuleFailure {
    RuleFailure(
      message: "\(method) goes deeper than the limit of \(DatasyncPath.maximumDepth) levels")
  }

  /// A snapshot method.
  static func snapshotMethod(_ method: RuleExpression.SnapshotMethod) -> SnapshotMethod {
    switch method {
    case .child(let path):
      let path = keys(path)
      return { evaluator, snapshot throws(RuleFailure) in
        let keys = try path(evaluator)
        guard snapshot.pathDepth + keys.count <= DatasyncPath.maximumDepth else {
          throw tooDeep(for: "child()")
        }
        let extra = snapshot.extra.isEmpty ? keys[...] : ArraySlice(Array(snapshot.extra) + keys)
        return .snapshot(
          RuleSnapshot(
            isNew: snapshot.isNew, value: snapshot.value.value(at: keys), depth: snapshot.depth,
            extra: extra))
      }
    case .parent:
      return { evaluator, snapshot throws(RuleFailure) in
        .snapshot(try evaluator.parent(of: snapshot))
      }
    default:
      let test = test(method)
      return { evaluator, snapshot throws(RuleFailure) in try test(evaluator, snapshot.value) }
    }
  }

  /// A snapshot method other than `child()` and `parent()`.
  static func test(_ method: RuleExpression.SnapshotMethod) -> Test {
    if let test = booleanTest(method) { return { _, value in .bool(test(value)) } }
    switch method {
    case .hasChild(let path):
      let path = keys(path)
      return { evaluator, value throws(RuleFailure) in
        .bool(!value.value(at: try path(evaluator)).isNull)
      }
    case .hasChildren(let paths):
      let allPresent = allPresent((paths ?? [])[...])
      return { evaluator, value throws(RuleFailure) in .bool(try allPresent(evaluator, value)) }
    case .val:
      return { _, value in
        if case .object = value { return .children }
        return RuleValue(value)
      }
    case .child, .parent:
      return { _, _ throws(RuleFailure) in
        throw RuleFailure(message: "child() and parent() give snapshots, not values")
      }
    case .exists, .isNumber, .isString, .isBoolean:
      preconditionFailure("a Boolean test is compiled by booleanTest(_:)")
    }
  }

  /// Whether a node has a child at each path, computed from the left until one is missing (a
  /// balanced tree of closures, as the operands of `&&`).
  private static func allPresent(_ paths: ArraySlice<RuleExpression.PathArgument>)
    -> @Sendable (RuleEvaluator, JSONValue) throws(RuleFailure) -> Bool
  {
    guard let path = paths.first else { return { _, _ in true } }
    guard paths.count > 1 else {
      let keys = keys(path)
      return { evaluator, value throws(RuleFailure) in
        !value.value(at: try keys(evaluator)).isNull
      }
    }
    let middle = paths.startIndex + paths.count / 2
    let (first, second) = (allPresent(paths[..<middle]), allPresent(paths[middle...]))
    return { evaluator, value throws(RuleFailure) in
      try first(evaluator, value) ? try second(evaluator, value) : false
    }
  }

  /// A snapshot method whose value is a Boolean that needs nothing but the node, `nil` for the
  /// others.
  static func booleanTest(_ method: RuleExpression.SnapshotMethod)
    -> (@Sendable (JSONValue) -> Bool)?
  {
    switch method {
    case .exists:
      return { value in !value.isNull }
    case .isNumber:
      return { value in
        switch value {
        case .int, .double: true
        default: false
        }
      }
    case .isString:
      return { value in
        if case .string = value { return true }
        return false
      }
    case .isBoolean:
      return { value in
        if case .bool = value { return true }
        return false
      }
    case .hasChild(.keys(let keys)):
      return { value in !value.value(at: keys).isNull }
    case .hasChildren(nil):
      return { value in value.children != nil }
    case .hasChildren(let paths?):
      let literalPaths = paths.compactMap { path -> [WebcomKey]? in
        guard case .keys(let keys) = path else { return nil }
        return keys
      }
      guard literalPaths.count == paths.count else { return nil }
      if literalPaths.allSatisfy({ $0.count == 1 }) {
        // Children of one key each (`hasChildren(['author', 'text'])`) are looked up in the
        // node's object without copying their values.
        let keys = literalPaths.map { $0[0] }
        return { value in
          guard case .object(let object) = value else { return keys.isEmpty }
          for key in keys where !object.containsKey(key) { return false }
          return true
        }
      }
      return { value in literalPaths.allSatisfy { !value.value(at: $0).isNull } }
    case .child, .parent, .hasChild, .val:
      return nil
    }
  }

  /// A relative path argument.
  static func keys(_ path: RuleExpression.PathArgument) -> Keys {
    switch path {
    case .keys(let keys):
      return { _ in keys }
    case .expression(let expression):
      let value = value(expression)
      return { evaluator throws(RuleFailure) in
        let value = try value(evaluator)
        guard case .string(let text) = value else {
          throw RuleFailure(message: "a path must be a string, found \(value.kindDescription)")
        }
        return try RuleEvaluator.keys(ofPath: text).get()
      }
    case .concatenation(let parts):
      let parts = parts.map(JoinedPath.Part.init)
      return { evaluator throws(RuleFailure) in try JoinedPath.keys(joining: parts, at: evaluator) }
    }
  }

  /// A string method or property.
  static func stringMethod(_ method: RuleExpression.StringMethod) -> StringMethod {
    switch method {
    case .length:
      return { _, string in .int(Int64(string.utf16.count)) }
    case .contains(let argument):
      let needle = text(argument, for: method)
      return { evaluator, string throws(RuleFailure) in
        .bool(
          RuleEvaluator.firstOccurrence(
            of: try needle(evaluator), in: string, from: string.utf8.startIndex) != nil)
      }
    case .beginsWith(let argument):
      let prefix = text(argument, for: method)
      return { evaluator, string throws(RuleFailure) in
        .bool(string.utf8.starts(with: try prefix(evaluator).utf8))
      }
    case .endsWith(let argument):
      let suffix = text(argument, for: method)
      return { evaluator, string throws(RuleFailure) in
        .bool(string.utf8.reversed().starts(with: try suffix(evaluator).utf8.reversed()))
      }
    case .replace(let pattern, let replacement):
      let (pattern, replacement) = (text(pattern, for: method), text(replacement, for: method))
      return { evaluator, string throws(RuleFailure) in
        .string(
          RuleEvaluator.replacing(
            try pattern(evaluator), with: try replacement(evaluator), in: string))
      }
    case .toLowerCase:
      return { _, string in .string(string.lowercased()) }
    case .toUpperCase:
      return { _, string in .string(string.uppercased()) }
    case .matches(let regex):
      return { _, string in .bool(regex.matches(string)) }
    }
  }

  /// A string argument of a string method.
  private static func text(
    _ expression: RuleExpression, for method: RuleExpression.StringMethod
  ) -> @Sendable (RuleEvaluator) throws(RuleFailure) -> String {
    let value = value(expression)
    return { evaluator throws(RuleFailure) in
      let value = try value(evaluator)
      guard case .string(let string) = value else {
        throw RuleFailure(
          message: "the argument of \(method.name) must be a string, found \(value.kindDescription)"
        )
      }
      return string
    }
  }
}
