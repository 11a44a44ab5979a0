import Foundation

/// The access checks the back end makes before serving a read or applying a write.
extension DatasyncRules {
  /// Whether every write is granted whoever makes it: the root's `.write` rule is the literal
  /// `true` and no `.validate` rule exists (the open rules), so that a write needs no check.
  var grantsEveryWrite: Bool {
    root.write?.isLiteralTrue == true && !root.containsValidate
  }

  /// Whether a client may read `path`.
  ///
  /// - Parameters:
  ///   - path: The location read (listened to or fetched).
  ///   - auth: The client's authentication, `nil` when unauthenticated.
  ///   - root: The current tree.
  ///   - now: The back end's clock.
  func canRead(
    _ path: DatasyncPath, auth: DatasyncAuthentication?, root: JSONValue, now: Date
  ) -> Bool {
    checkRead(path, auth: auth, root: root, now: now) == nil
  }

  /// Checks that a client may read `path`: a `.read` rule at the root, at `path` or between them
  /// evaluates to true (``DatasyncAuthentication/admin`` may read everything).
  ///
  /// Evaluates only the `.read` rules on the way from the root to `path`, stopping at the first
  /// grant.
  ///
  /// - Returns: `nil` when allowed, else a `permissionDenied` error naming the path.
  func checkRead(
    _ path: DatasyncPath, auth: DatasyncAuthentication?, root: JSONValue, now: Date
  ) -> WebcomError? {
    if auth?.isAdmin == true { return nil }
    var evaluator = RuleEvaluator(
      context: RuleContext(
        auth: auth, now: WebcomDate(now).milliseconds ?? 0, oldRoot: root, newRoot: root),
      location: path.keys, depth: 0, data: .null, newData: .null)
    var node: RuleNode? = self.root
    var data = PathValues(root: root, path: path)
    var depth = 0
    while let current = node {
      if let read = current.read {
        if read.isLiteralTrue { return nil }
        evaluator.depth = depth
        evaluator.data = read.readsData ? data.value(at: depth) : .null
        evaluator.newData = evaluator.data
        if evaluator.isTrue(read.condition) { return nil }
      }
      guard depth < path.depth else { break }
      node = current.child(path.keys[depth])
      depth += 1
    }
    return WebcomError(
      .permissionDenied,
      "reading \(WebcomKey.quoted(path.string)) is denied: no .read rule at or above it grants "
        + "access")
  }

  /// Checks that a client may make a write that changes the tree from `oldRoot` to `newRoot` at
  /// `paths` (one path for a set, an increment or a transaction; every child written for a
  /// merge, multi-location keys included: all of them are checked, and one refusal refuses the
  /// whole write).
  ///
  /// For each path: a `.write` rule at the root, at the path or between them must evaluate to
  /// true (the first grant on the way down wins), and every `.validate` rule must hold where the
  /// new data is not null: at the root, at the path and between them, and below the path for
  /// every location of the new data that a rule matches. `data` is the location in `oldRoot`,
  /// `newData` in `newRoot`. ``DatasyncAuthentication/admin`` may write anything.
  ///
  /// The cost depends on the depth of the paths, the rules on them and the new data below them
  /// (only where rules have `.validate` below), not on the size of the tree (beyond the
  /// logarithmic cost of looking a key up).
  ///
  /// - Returns: `nil` when allowed, else a `permissionDenied` error naming the path written and,
  ///   for a refused validation, the rule and the location it refused.
  func checkWrite(
    at paths: [DatasyncPath], auth: DatasyncAuthentication?, oldRoot: JSONValue,
    newRoot: JSONValue, now: Date
  ) -> WebcomError? {
    guard var check = writeCheck(auth: auth, oldRoot: oldRoot, newRoot: newRoot, now: now) else {
      return nil
    }
    for path in paths {
      if let error = check.check(path, rules: root) { return error }
    }
    return nil
  }

  /// ``checkWrite(at:auth:oldRoot:newRoot:now:)`` for a write of one location whose new value the
  /// caller knows (a set, or an increment or a transaction as applied): the same result, with the
  /// new data at `path` taken from `newValue` rather than looked up in `newRoot`. When it is not
  /// null, every node above `path` is an object holding it, so the new data there is looked up
  /// only for the rules that read it.
  ///
  /// - Parameter newValue: The value at `path` in `newRoot`.
  func checkWrite(
    setting newValue: JSONValue, at path: DatasyncPath, auth: DatasyncAuthentication?,
    oldRoot: JSONValue, newRoot: JSONValue, now: Date
  ) -> WebcomError? {
    var check = writeCheck(auth: auth, oldRoot: oldRoot, newRoot: newRoot, now: now)
    return check?.check(path, rules: root, newValue: newValue)
  }

  /// The check of a write, `nil` when the client may write anything.
  private func writeCheck(
    auth: DatasyncAuthentication?, oldRoot: JSONValue, newRoot: JSONValue, now: Date
  ) -> WriteCheck? {
    if auth?.isAdmin == true || grantsEveryWrite { return nil }
    return WriteCheck(
      context: RuleContext(
        auth: auth, now: WebcomDate(now).milliseconds ?? 0, oldRoot: oldRoot, newRoot: newRoot))
  }
}

/// The evaluation of the rules of one write.
private struct WriteCheck {
  /// The evaluator of every rule of the write, moved from location to location.
  private var evaluator: RuleEvaluator

  init(context: RuleContext) {
    evaluator = RuleEvaluator(context: context, location: [], depth: 0, data: .null, newData: .null)
  }

  /// Checks the write at `path`: `.write` on the way down, `.validate` on the way down and below.
  /// `newValue`, when given, is the new data at `path` (see
  /// ``DatasyncRules/checkWrite(setting:at:auth:oldRoot:newRoot:now:)``).
  mutating func check(_ path: DatasyncPath, rules: RuleNode, newValue: JSONValue? = nil)
    -> WebcomError?
  {
    var node: RuleNode? = rules
    var data = PathValues(root: evaluator.context.oldRoot, path: path)
    var newData = PathValues(root: evaluator.context.newRoot, path: path, last: newValue)
    var depth = 0
    var isGranted = false
    var refusal: WebcomError?
    evaluator.location = path.keys
    while let current = node {
      if !isGranted, let write = current.write {
        if write.isLiteralTrue {
          isGranted = true
        } else {
          move(to: depth, for: write, data: &data, newData: &newData)
          isGranted = evaluator.isTrue(write.condition)
        }
      }
      if newData.isNull(at: depth) {
        if isGranted { return refusal }
      } else if refusal == nil, let validate = current.validate {
        move(to: depth, for: validate, data: &data, newData: &newData)
        refusal = self.refusal(validate, path: path)
      }
      guard depth < path.depth else { break }
      node = current.child(path.keys[depth])
      depth += 1
    }
    guard isGranted else {
      return WebcomError(
        .permissionDenied,
        "writing \(WebcomKey.quoted(path.string)) is denied: no .write rule at or above it "
          + "grants access")
    }
    if let refusal { return refusal }
    let newValue = newData.value(at: depth)
    guard let node, node.containsValidate, newValue.children != nil else { return nil }
    evaluator.location.reserveCapacity(DatasyncPath.maximumDepth)
    return validateBelow(
      node, data: node.validateReadsData ? data.value(at: depth) : .null, newData: newValue,
      path: path)
  }

  /// Moves the evaluator to the first `depth` keys of its location for `rule`, with the data and
  /// new data there that the rule reads (null for those it does not read).
  private mutating func move(
    to depth: Int, for rule: RuleNode.Rule, data: inout PathValues, newData: inout PathValues
  ) {
    move(
      to: depth, data: rule.readsData ? data.value(at: depth) : .null,
      newData: rule.readsNewData ? newData.value(at: depth) : .null)
  }

  /// Moves the evaluator to the first `depth` keys of its location.
  private mutating func move(to depth: Int, data: JSONValue, newData: JSONValue) {
    evaluator.depth = depth
    evaluator.data = data
    evaluator.newData = newData
  }

  /// Evaluates the `.validate` rules that match the descendants of `newData`, which is at the
  /// evaluator's location and matches `node`.
  private mutating func validateBelow(
    _ node: RuleNode, data: JSONValue, newData: JSONValue, path: DatasyncPath
  ) -> WebcomError? {
    guard let children = newData.children else { return nil }
    let wildcard = node.wildcard.flatMap { $0.containsValidate ? $0 : nil }
    var namedCount = 0
    // By position: iterating the pairs would copy each (its node retained, then released).
    let named = node.namedChildren
    for index in named.indices where named[index].node.containsValidate || wildcard != nil {
      guard let childData = children[named[index].key] else { continue }
      namedCount += 1
      guard named[index].node.containsValidate else { continue }
      if let refusal = validate(
        child: named[index].key, of: data, against: named[index].node, newData: childData,
        path: path)
      {
        return refusal
      }
    }
    guard let wildcard, namedCount < children.count else { return nil }
    for (key, childData) in children where node.namedChild(key) == nil {
      if let refusal = validate(
        child: key, of: data, against: wildcard, newData: childData, path: path)
      {
        return refusal
      }
    }
    return nil
  }

  /// Evaluates the `.validate` rules that match `newData`, the new data of the child `key` of
  /// the evaluator's location (where the data is `parentData`), and its descendants, against
  /// `node`.
  private mutating func validate(
    child key: WebcomKey, of parentData: JSONValue, against node: RuleNode, newData: JSONValue,
    path: DatasyncPath
  ) -> WebcomError? {
    evaluator.location.append(key)
    defer { evaluator.location.removeLast() }
    let data = node.validateReadsData ? parentData[key] : .null
    if let validate = node.validate {
      move(to: evaluator.location.count, data: data, newData: newData)
      if let refusal = refusal(validate, path: path) { return refusal }
    }
    return validateBelow(node, data: data, newData: newData, path: path)
  }

  /// The error of a `.validate` rule that does not hold where the evaluator is, or `nil`.
  private func refusal(_ validate: RuleNode.Rule, path: DatasyncPath) -> WebcomError? {
    let reason: String
    do {
      if try evaluator.boolean(validate.condition) { return nil }
      reason = "it is false"
    } catch {
      reason = "it failed: \(error.message)"
    }
    let place = DatasyncPath(validatedKeys: Array(evaluator.location.prefix(evaluator.depth)))
    return WebcomError(
      .permissionDenied,
      "writing \(WebcomKey.quoted(path.string)) is denied: the rule "
        + "\(WebcomKey.quoted(validate.path)) refused the new data at "
        + "\(WebcomKey.quoted(place.string)) (\(reason))")
  }
}

/// The values of a tree along a path, looked up only as deep as a rule needs.
private struct PathValues {
  private let path: DatasyncPath
  private var value: JSONValue
  private var depth = 0
  /// The value at the end of the path, when the caller knows it and it is not null.
  private let last: JSONValue?

  /// The values of `root` along `path`; `last`, when given, is the value at the end of the path.
  init(root: JSONValue, path: DatasyncPath, last: JSONValue? = nil) {
    self.path = path
    value = root
    self.last = last.flatMap { $0.isNull ? nil : $0 }
  }

  /// The value at the first `depth` keys of the path (never less deep than asked before).
  mutating func value(at depth: Int) -> JSONValue {
    if depth == path.depth, let last { return last }
    while self.depth < depth {
      value = value[path.keys[self.depth]]
      self.depth += 1
    }
    return value
  }

  /// Whether the value at the first `depth` keys of the path is null: never, without a look-up,
  /// when the value at the end is known not to be (every node above it is an object holding it).
  mutating func isNull(at depth: Int) -> Bool {
    last == nil && value(at: depth).isNull
  }
}
