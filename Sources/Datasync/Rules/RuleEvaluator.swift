/// Why evaluating a rule expression failed: the rule is then false.
struct RuleFailure: Error {
  let message: String
}

/// The location and the trees a rule expression compiled by ``RuleCompiler`` is evaluated
/// against.
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
  var location: [WebcomKey]
  /// The number of keys of `location` that form the rule's location.
  var depth: Int
  /// The value at the location before the operation (`data`).
  var data: JSONValue
  /// The value at the location after the operation (`newData`).
  var newData: JSONValue

  /// Whether `condition` is true; a failure counts as `false`.
  func isTrue(_ condition: RuleCompiler.Condition) -> Bool {
    (try? condition(self)) ?? false
  }

  /// The value of `condition`.
  ///
  /// - Throws: ``RuleFailure`` when the evaluation fails or the value is not a Boolean.
  func boolean(_ condition: RuleCompiler.Condition) throws(RuleFailure) -> Bool {
    try condition(self)
  }

  /// The authentication, for reading its `member`.
  ///
  /// - Throws: ``RuleFailure`` when the client is not authenticated.
  func authentication(_ member: String) throws(RuleFailure) -> DatasyncAuthentication {
    guard let auth = context.auth else {
      throw RuleFailure(message: "cannot read auth.\(member): auth is null (not authenticated)")
    }
    return auth
  }

  // MARK: - Snapshots

  /// The value and the depth of the node `root`, `data` or `newData`.
  func start(_ start: RuleExpression.SnapshotRoot) -> (value: JSONValue, depth: Int) {
    switch start {
    case .root: (context.oldRoot, 0)
    case .data: (data, depth)
    case .newData: (newData, depth)
    }
  }

  /// The snapshot `root`, `data` or `newData`.
  func snapshot(_ start: RuleExpression.SnapshotRoot) -> RuleSnapshot {
    let (value, depth) = self.start(start)
    return RuleSnapshot(isNew: start == .newData, value: value, depth: depth, extra: [])
  }

  /// The parent of a snapshot, in the same tree.
  ///
  /// - Throws: ``RuleFailure`` for the root.
  func parent(of snapshot: RuleSnapshot) throws(RuleFailure) -> RuleSnapshot {
    let tree = snapshot.isNew ? context.newRoot : context.oldRoot
    if !snapshot.extra.isEmpty {
      let extra = snapshot.extra.dropLast()
      let value = tree.value(at: location[..<snapshot.depth]).value(at: extra)
      return RuleSnapshot(isNew: snapshot.isNew, value: value, depth: snapshot.depth, extra: extra)
    }
    guard snapshot.depth > 0 else { throw RuleFailure(message: "the root has no parent") }
    let depth = snapshot.depth - 1
    return RuleSnapshot(
      isNew: snapshot.isNew, value: tree.value(at: location[..<depth]), depth: depth, extra: [])
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
