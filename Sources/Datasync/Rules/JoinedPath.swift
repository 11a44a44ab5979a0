/// The keys of a path joined with `+` from strings and other parts (`'users/' + auth.uid`),
/// computed without building the joined string: the text between two slashes becomes a key as
/// soon as the second slash is met, and a part that fills a whole segment with a valid key (a `$`
/// variable, `auth.uid`, a literal) is used as that key.
struct JoinedPath {
  /// A compiled part of a joined path.
  enum Part: Sendable {
    /// A literal text split at its slashes.
    case literal(RuleExpression.PathLiteral)
    /// A `$` variable: the key of the location at this depth.
    case variable(depth: Int)
    /// `auth.uid`.
    case authUID
    /// A string or a number computed at evaluation.
    case value(RuleCompiler.Value)

    init(_ part: RuleExpression.PathPart) {
      switch part {
      case .literal(let literal):
        self = .literal(literal)
      case .expression(.variable(let depth)):
        self = .variable(depth: depth)
      case .expression(.authUID):
        self = .authUID
      case .expression(let expression):
        self = .value(RuleCompiler.value(expression))
      }
    }
  }

  /// A segment of a joined path that is one key whatever the location: a literal key, a `$`
  /// variable or `auth.uid`.
  enum Segment: Sendable, Equatable {
    case key(WebcomKey)
    case variable(depth: Int)
    case authUID

    /// The key at the evaluator's location; `nil` for a `uid` that is not one key (it may
    /// contain slashes: the path is then joined as text).
    ///
    /// - Throws: ``RuleFailure`` for `auth.uid` when the client is not authenticated.
    func key(at evaluator: RuleEvaluator) throws(RuleFailure) -> WebcomKey? {
      switch self {
      case .key(let key): key
      case .variable(let depth): evaluator.location[depth]
      case .authUID: try evaluator.authentication("uid").uidKey
      }
    }
  }

  /// The segments of the path that joining `parts` spells, when each is one key whatever the
  /// location (such as `'members/' + $room + '/' + auth.uid`), between 1 and the depth limit;
  /// else `nil`, and the path is joined at each evaluation.
  static func segments(of parts: [RuleExpression.PathPart]) -> [Segment]? {
    var segments: [Segment] = []
    /// The parts of the segment being read, at most one.
    var pending: Segment?
    var pendingText = ""
    func endSegment() -> Bool {
      defer { (pending, pendingText) = (nil, "") }
      if let segment = pending {
        guard pendingText.isEmpty else { return false }
        segments.append(segment)
      } else if !pendingText.isEmpty {
        guard let key = try? WebcomKey.validated(pendingText) else { return false }
        segments.append(.key(key))
      }
      return true
    }
    func add(_ segment: Segment) -> Bool {
      guard pending == nil, pendingText.isEmpty else { return false }
      pending = segment
      return true
    }
    for part in parts {
      switch part {
      case .literal(let literal):
        guard pending == nil || literal.head.isEmpty else { return nil }
        pendingText += literal.head
        guard let tail = literal.tail else { continue }
        guard endSegment() else { return nil }
        segments += literal.keys.map(Segment.key)
        pendingText = tail
      case .expression(.variable(let depth)):
        guard add(.variable(depth: depth)) else { return nil }
      case .expression(.authUID):
        guard add(.authUID) else { return nil }
      case .expression:
        return nil
      }
    }
    guard endSegment(), (1...DatasyncPath.maximumDepth).contains(segments.count) else {
      return nil
    }
    return segments
  }

  /// The keys of the path that joining `parts` spells at the evaluator's location.
  ///
  /// - Throws: ``RuleFailure`` when a part fails or is neither a string nor a number, when a
  ///   segment is not a valid key, when the path names no child or is deeper than the limit.
  static func keys(joining parts: [Part], at evaluator: RuleEvaluator) throws(RuleFailure)
    -> [WebcomKey]
  {
    var path = JoinedPath()
    for part in parts {
      let literal: RuleExpression.PathLiteral
      switch part {
      case .literal(let value):
        literal = value
      case .variable(let depth):
        path.append(evaluator.location[depth])
        continue
      case .authUID:
        let auth = try evaluator.authentication("uid")
        if let key = auth.uidKey {
          path.append(key)
          continue
        }
        literal = try RuleExpression.PathLiteral.make(auth.uid).get()
      case .value(let compiled):
        let value = try compiled(evaluator)
        let text: String
        switch value {
        case .string(let string): text = string
        case .int, .double: text = try RuleEvaluator.text(ofNumber: value)
        default:
          throw RuleFailure(
            message: "+ joins a string with a string or a number, not \(value.kindDescription)")
        }
        guard RuleEvaluator.bytes(of: text, { $0.contains(UInt8(ascii: "/")) }) else {
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

  private var keys: [WebcomKey] = []
  /// The segment so far when it is one valid key, else `nil`.
  private var pendingKey: WebcomKey?
  /// The segment so far when it is not ``pendingKey``.
  private var pendingText = ""

  private init() {
    keys.reserveCapacity(8)
  }

  private mutating func append(_ key: WebcomKey) {
    if pendingKey == nil && pendingText.isEmpty {
      pendingKey = key
    } else {
      append(key.value)
    }
  }

  private mutating func append(_ text: String) {
    if let key = pendingKey {
      pendingText = key.value
      pendingKey = nil
    }
    pendingText += text
  }

  /// Turns the segment so far, if any, into a key.
  private mutating func endSegment() throws(RuleFailure) {
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
