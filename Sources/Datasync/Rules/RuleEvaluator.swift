/// Why evaluating a rule expression failed: the rule is then false.
struct RuleFailure: Error {
  let message: String
}

/// Evaluates rule expressions at one location of the tree.
///
/// Semantics, as the hosted service's where it documents them: `==` is strict (values of
/// different types are different; integers and floating numbers compare by value; strings by
/// their Unicode scalars); `<`-like operators compare two numbers or two strings; `+` adds two
/// numbers or joins a string with a string or a number (integral numbers without a fraction);
/// `&&`, `||` and `?:` need Booleans and evaluate only what they need; arithmetic overflowing
/// `Int64` continues in floating point, and a division by zero or a result that is not finite is
/// an error. A string's `length` counts UTF-16 code units (as JavaScript); `contains()`,
/// `beginsWith()`, `endsWith()` and `replace()` compare Unicode scalars (`replace()` replaces
/// every occurrence, and nothing when the string to replace is empty). Snapshot methods read the
/// immutable trees given, `val()` of a node with children is a value equal to nothing.
///
/// Any failure (a type mismatch, a member of null, `parent()` of the root, a path deeper than 32
/// levels…) is a ``RuleFailure``, and the rule is then false. Evaluation is bounded: there are no
/// loops, each node of the expression is evaluated at most once, and the cost of each is at most
/// linear in the strings and the paths it reads (`matches()`: see ``RuleRegex``).
struct RuleEvaluator {
  /// The authentication, the clock and the trees.
  let context: RuleContext
  /// Keys starting with the rule's location (`$` variables read them).
  let location: [WebcomKey]
  /// The number of keys of `location` that form the rule's location.
  let depth: Int
  /// The value at the location before the operation (`data`).
  let data: JSONValue
  /// The value at the location after the operation (`newData`).
  let newData: JSONValue

  /// Whether `expression` evaluates to `true`; a failure counts as `false`.
  func isTrue(_ expression: RuleExpression) -> Bool {
    (try? boolean(expression)) ?? false
  }

  /// The Boolean value of `expression`.
  ///
  /// - Throws: ``RuleFailure`` when the evaluation fails or the value is not a Boolean.
  func boolean(_ expression: RuleExpression) throws(RuleFailure) -> Bool {
    let value = try evaluate(expression)
    guard case .bool(let bool) = value else {
      throw RuleFailure(message: "expected a boolean, found \(value.kindDescription)")
    }
    return bool
  }

  /// The value of `expression`.
  ///
  /// - Throws: ``RuleFailure`` when the evaluation fails.
  func evaluate(_ expression: RuleExpression) throws(RuleFailure) -> RuleValue {
    switch expression {
    case .literal(let value):
      return value
    case .auth:
      return context.auth.map(RuleValue.authentication) ?? .null
    case .isAuthenticated:
      return .bool(context.auth != nil)
    case .authUID:
      return .string(try authentication("uid").uid)
    case .authProvider:
      return .string(try authentication("provider").provider)
    case .authToken:
      return .object(try authentication("token").token)
    case .property(let base, let key):
      let value = try evaluate(base)
      guard case .object(let object) = value else {
        throw RuleFailure(message: "cannot read \"\(key)\" of \(value.kindDescription)")
      }
      return RuleValue(object[key])
    case .now:
      return .int(context.now)
    case .snapshot(let start):
      switch start {
      case .root:
        return .snapshot(
          RuleSnapshot(isNew: false, value: context.oldRoot, depth: 0, extra: []))
      case .data:
        return .snapshot(RuleSnapshot(isNew: false, value: data, depth: depth, extra: []))
      case .newData:
        return .snapshot(RuleSnapshot(isNew: true, value: newData, depth: depth, extra: []))
      }
    case .variable(let depth):
      return .string(location[depth].value)
    case .not(let operand):
      return .bool(!(try boolean(operand)))
    case .negate(let operand):
      switch try number(operand, for: "-") {
      case .int(let int) where int != .min: return .int(-int)
      case .int(let int): return .double(-Double(int))
      case .double(let double): return .double(-double)
      }
    case .all(let operands):
      for operand in operands {
        guard try boolean(operand) else { return .bool(false) }
      }
      return .bool(true)
    case .any(let operands):
      for operand in operands {
        if try boolean(operand) { return .bool(true) }
      }
      return .bool(false)
    case .conditional(let condition, let then, let otherwise):
      return try evaluate(try boolean(condition) ? then : otherwise)
    case .binary(let operation, let left, let right):
      return try binary(operation, try evaluate(left), try evaluate(right))
    case .snapshotMethod(let base, let method):
      let value = try evaluate(base)
      guard case .snapshot(let snapshot) = value else {
        throw RuleFailure(message: "expected a snapshot, found \(value.kindDescription)")
      }
      return try snapshotMethod(method, of: snapshot)
    case .read(let start, let paths, let method):
      return try read(from: start, through: paths, method)
    case .stringMethod(let base, let method):
      let value = try evaluate(base)
      guard case .string(let string) = value else {
        throw RuleFailure(
          message: "\(method.name) needs a string, found \(value.kindDescription)")
      }
      return try stringMethod(method, of: string)
    }
  }

  private func authentication(_ member: String) throws(RuleFailure) -> DatasyncAuthentication {
    guard let auth = context.auth else {
      throw RuleFailure(message: "cannot read auth.\(member): auth is null (not authenticated)")
    }
    return auth
  }

  // MARK: - Snapshots

  private func snapshotMethod(_ method: RuleExpression.SnapshotMethod, of snapshot: RuleSnapshot)
    throws(RuleFailure) -> RuleValue
  {
    switch method {
    case .child(let path):
      let keys = try self.keys(of: path)
      guard snapshot.pathDepth + keys.count <= DatasyncPath.maximumDepth else {
        throw RuleFailure(
          message: "child() goes deeper than the limit of \(DatasyncPath.maximumDepth) levels")
      }
      let extra = snapshot.extra.isEmpty ? keys[...] : ArraySlice(Array(snapshot.extra) + keys)
      return .snapshot(
        RuleSnapshot(
          isNew: snapshot.isNew, value: snapshot.value.value(at: keys), depth: snapshot.depth,
          extra: extra))
    case .parent:
      let tree = snapshot.isNew ? context.newRoot : context.oldRoot
      if !snapshot.extra.isEmpty {
        let extra = snapshot.extra.dropLast()
        let value = tree.value(at: location[..<snapshot.depth]).value(at: extra)
        return .snapshot(
          RuleSnapshot(isNew: snapshot.isNew, value: value, depth: snapshot.depth, extra: extra))
      }
      guard snapshot.depth > 0 else { throw RuleFailure(message: "the root has no parent") }
      let depth = snapshot.depth - 1
      return .snapshot(
        RuleSnapshot(
          isNew: snapshot.isNew, value: tree.value(at: location[..<depth]), depth: depth,
          extra: []))
    default:
      return try test(method, of: snapshot.value)
    }
  }

  /// Reads from `start` down the paths of `child()` calls, then applies `method`.
  private func read(
    from start: RuleExpression.SnapshotRoot, through paths: [RuleExpression.PathArgument],
    _ method: RuleExpression.SnapshotMethod
  ) throws(RuleFailure) -> RuleValue {
    var value: JSONValue
    var pathDepth: Int
    switch start {
    case .root: (value, pathDepth) = (context.oldRoot, 0)
    case .data: (value, pathDepth) = (data, depth)
    case .newData: (value, pathDepth) = (newData, depth)
    }
    for path in paths {
      let keys = try keys(of: path)
      pathDepth += keys.count
      guard pathDepth <= DatasyncPath.maximumDepth else {
        throw RuleFailure(
          message: "child() goes deeper than the limit of \(DatasyncPath.maximumDepth) levels")
      }
      value = value.value(at: keys)
    }
    return try test(method, of: value)
  }

  /// The result of a snapshot method other than `child()` and `parent()` on a node's value.
  private func test(_ method: RuleExpression.SnapshotMethod, of value: JSONValue)
    throws(RuleFailure) -> RuleValue
  {
    switch method {
    case .hasChild(let path):
      return .bool(!value.value(at: try keys(of: path)).isNull)
    case .hasChildren(let paths):
      guard let paths else { return .bool(value.children != nil) }
      for path in paths {
        guard !value.value(at: try keys(of: path)).isNull else { return .bool(false) }
      }
      return .bool(true)
    case .exists:
      return .bool(!value.isNull)
    case .val:
      if case .object = value { return .children }
      return RuleValue(value)
    case .isNumber:
      switch value {
      case .int, .double: return .bool(true)
      default: return .bool(false)
      }
    case .isString:
      if case .string = value { return .bool(true) }
      return .bool(false)
    case .isBoolean:
      if case .bool = value { return .bool(true) }
      return .bool(false)
    case .child, .parent:
      throw RuleFailure(message: "child() and parent() give snapshots, not values")
    }
  }

  private func keys(of path: RuleExpression.PathArgument) throws(RuleFailure) -> [WebcomKey] {
    switch path {
    case .keys(let keys):
      return keys
    case .expression(let expression):
      let value = try evaluate(expression)
      guard case .string(let text) = value else {
        throw RuleFailure(message: "a path must be a string, found \(value.kindDescription)")
      }
      return try Self.keys(ofPath: text).get()
    case .concatenation(let parts):
      return try keys(joining: parts)
    }
  }

  /// The keys of the path that joining `parts` spells, without building the joined string: the
  /// text between two slashes becomes a key as soon as the second slash is met, and a `$`
  /// variable or `auth.uid` that fills a whole segment is used as the key it already is.
  private func keys(joining parts: [RuleExpression.PathPart]) throws(RuleFailure) -> [WebcomKey] {
    var path = JoinedPath()
    for part in parts {
      let literal: RuleExpression.PathLiteral
      switch part {
      case .literal(let value):
        literal = value
      case .expression(.variable(let depth)):
        path.append(location[depth])
        continue
      case .expression(.authUID):
        let auth = try authentication("uid")
        if let key = auth.uidKey {
          path.append(key)
          continue
        }
        literal = try RuleExpression.PathLiteral.make(auth.uid).get()
      case .expression(let expression):
        let value = try evaluate(expression)
        let text: String
        switch value {
        case .string(let string): text = string
        case .int, .double: text = try Self.text(ofNumber: value)
        default:
          throw RuleFailure(
            message: "+ joins a string with a string or a number, not \(value.kindDescription)")
        }
        guard Self.bytes(of: text, { $0.contains(UInt8(ascii: "/")) }) else {
          path.append(text)
          continue
        }
        literal = try RuleExpression.PathLiteral.make(text).get()
      }
      if !literal.head.isEmpty { path.append(literal.head) }
      guard let tail = literal.tail else { continue }
      try path.endSegment()
      path.keys += literal.keys
      if !tail.isEmpty { path.append(tail) }
    }
    try path.endSegment()
    guard !path.keys.isEmpty else { throw RuleFailure(message: "the path names no child") }
    guard path.keys.count <= DatasyncPath.maximumDepth else {
      throw RuleFailure(
        message: "the path is deeper than the limit of \(DatasyncPath.maximumDepth) levels")
    }
    return path.keys
  }

  /// The keys of a path being joined, and the segment being built.
  private struct JoinedPath {
    var keys: [WebcomKey] = []
    /// The segment so far when it is one valid key, else `nil`.
    private var pendingKey: WebcomKey?
    /// The segment so far when it is not ``pendingKey``.
    private var pendingText = ""

    init() {
      keys.reserveCapacity(8)
    }

    mutating func append(_ key: WebcomKey) {
      if pendingKey == nil && pendingText.isEmpty {
        pendingKey = key
      } else {
        append(key.value)
      }
    }

    mutating func append(_ text: String) {
      if let key = pendingKey {
        pendingText = key.value
        pendingKey = nil
      }
      pendingText += text
    }

    /// Turns the segment so far, if any, into a key.
    mutating func endSegment() throws(RuleFailure) {
      if let key = pendingKey {
        keys.append(key)
        pendingKey = nil
        return
      }
      guard !pendingText.isEmpty else { return }
      var text = pendingText
      let key = text.withUTF8 { utf8 in
        WebcomKey.invalidityReason(of: utf8) == nil ? WebcomKey(pendingText, utf8: utf8) : nil
      }
      guard let key else {
        let reason = WebcomKey.invalidityReason(of: pendingText.utf8) ?? ""
        throw RuleFailure(
          message: "the path segment \(WebcomKey.quoted(pendingText)) is not a valid key: "
            + reason)
      }
      keys.append(key)
      pendingText = ""
    }
  }

  /// `body` applied to the UTF-8 bytes of `string`.
  static func bytes<Result>(
    of string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
  ) -> Result {
    var string = string
    return string.withUTF8(body)
  }

  /// The keys of a relative path: `/`-separated, empty segments ignored, each a valid key, at
  /// most 32 of them.
  static func keys(ofPath path: String) -> Result<[WebcomKey], RuleFailure> {
    var keys: [WebcomKey] = []
    for segment in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
      let key = String(decoding: segment, as: UTF8.self)
      if let reason = WebcomKey.invalidityReason(of: segment) {
        return .failure(
          RuleFailure(
            message: "the path \(WebcomKey.quoted(path)) is invalid: the segment "
              + "\(WebcomKey.quoted(key)) is not a valid key: \(reason)"))
      }
      keys.append(WebcomKey(key))
    }
    guard !keys.isEmpty else {
      return .failure(RuleFailure(message: "the path \(WebcomKey.quoted(path)) names no child"))
    }
    guard keys.count <= DatasyncPath.maximumDepth else {
      return .failure(
        RuleFailure(
          message: "the path \(WebcomKey.quoted(path)) is deeper than the limit of "
            + "\(DatasyncPath.maximumDepth) levels"))
    }
    return .success(keys)
  }
}
