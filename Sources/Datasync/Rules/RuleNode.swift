/// A node of compiled rules: the rules of one location pattern and those below it.
///
/// The tree mirrors the rules document: children by key, and at most one `$` wildcard child for
/// every other key. It is immutable once built.
final class RuleNode: Sendable {
  /// A compiled `.read`, `.write` or `.validate` rule.
  final class Rule: Sendable {
    /// The expression, compiled.
    let condition: RuleCompiler.Condition
    /// The rule's path in the document, such as `/users/$uid/.write`.
    let path: String
    /// Whether the rule reads `data` (else it need not be looked up).
    let readsData: Bool
    /// Whether the rule reads `newData` (else it need not be looked up where the write check
    /// knows the new data is not null).
    let readsNewData: Bool
    /// Whether the rule is the literal `true` (`true` in the document, or `"true"`): it grants
    /// access without being evaluated.
    let isLiteralTrue: Bool

    init(expression: RuleExpression, path: String) {
      condition = RuleCompiler.condition(expression)
      self.path = path
      readsData = expression.mentions(.data)
      readsNewData = expression.mentions(.newData)
      if case .literal(.bool(true)) = expression {
        isLiteralTrue = true
      } else {
        isLiteralTrue = false
      }
    }
  }

  let read: Rule?
  let write: Rule?
  let validate: Rule?
  /// The children named by a key, in key order.
  let namedChildren: [(key: WebcomKey, node: RuleNode)]
  /// The `$` child, for every key not named.
  let wildcard: RuleNode?
  /// The location pattern, such as `/users/$uid`.
  let pattern: String
  /// Whether this node or one below has a `.validate` rule.
  let containsValidate: Bool
  /// Whether a `.validate` rule of this node or one below reads `data`.
  let validateReadsData: Bool

  init(
    read: Rule?, write: Rule?, validate: Rule?, children: [WebcomKey: RuleNode],
    wildcard: RuleNode?, pattern: String
  ) {
    self.read = read
    self.write = write
    self.validate = validate
    namedChildren = children.map { (key: $0.key, node: $0.value) }.sorted { $0.key < $1.key }
    self.wildcard = wildcard
    self.pattern = pattern
    containsValidate =
      validate != nil || wildcard?.containsValidate == true
      || children.values.contains { $0.containsValidate }
    validateReadsData =
      validate?.readsData == true || wildcard?.validateReadsData == true
      || children.values.contains { $0.validateReadsData }
  }

  /// The node whose rules apply to the child of this key, if any.
  func child(_ key: WebcomKey) -> RuleNode? {
    namedChild(key) ?? wildcard
  }

  /// The child named by this key, if any (a binary search: keys compare in a few instructions).
  func namedChild(_ key: WebcomKey) -> RuleNode? {
    var low = 0
    var high = namedChildren.count
    while low < high {
      let middle = (low + high) / 2
      let order = WebcomKey.order(namedChildren[middle].key, key)
      if order == 0 { return namedChildren[middle].node }
      if order < 0 { low = middle + 1 } else { high = middle }
    }
    return nil
  }
}

extension RuleNode {
  /// Compiles the rules document `text` (already read into `document`).
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` naming the rule's path and what is
  ///   wrong (with its line and column in the document, or its column in the expression).
  static func compile(_ document: RulesDocumentReader.Value, text: String) throws(WebcomError)
    -> RuleNode
  {
    let compiler = Compiler(text: text)
    guard case .object(let members, _) = document else {
      throw compiler.error(
        "the document must be an object with a \"rules\" member, not \(document.kindDescription)",
        at: document.offset)
    }
    var rules: RulesDocumentReader.Value?
    for member in members {
      guard member.key == "rules" else {
        throw compiler.error(
          "unknown member \(WebcomKey.quoted(member.key)): the document has only \"rules\"",
          at: member.keyOffset)
      }
      guard rules == nil else {
        throw compiler.error("\"rules\" appears twice", at: member.keyOffset)
      }
      rules = member.value
    }
    guard let rules else {
      throw compiler.error("the document has no \"rules\" member", at: document.offset)
    }
    return try compiler.node(rules, keys: [], variables: [:])
  }

  /// Builds nodes from the document's values.
  private struct Compiler {
    let text: String

    func error(_ message: String, at offset: Int) -> WebcomError {
      WebcomError(
        .invalidArgument,
        "the rules are invalid at \(RulesDocumentReader.location(of: offset, in: text)): \(message)"
      )
    }

    func error(at path: String, _ message: String, offset: Int) -> WebcomError {
      WebcomError(
        .invalidArgument,
        "the rules are invalid at \(WebcomKey.quoted(path)) "
          + "(\(RulesDocumentReader.location(of: offset, in: text))): \(message)")
    }

    static func pattern(_ keys: [String]) -> String {
      keys.isEmpty ? "/" : "/" + keys.joined(separator: "/")
    }

    func node(
      _ value: RulesDocumentReader.Value, keys: [String], variables: [String: Int]
    ) throws(WebcomError) -> RuleNode {
      let pattern = Self.pattern(keys)
      guard case .object(let members, _) = value else {
        throw error(
          at: pattern, "the rules of a location must be an object, not \(value.kindDescription)",
          offset: value.offset)
      }
      guard keys.count <= DatasyncPath.maximumDepth else {
        throw error(
          at: pattern, "rules go deeper than the limit of \(DatasyncPath.maximumDepth) levels",
          offset: value.offset)
      }
      var seen: Set<String> = []
      var read: Rule?
      var write: Rule?
      var validate: Rule?
      var children: [WebcomKey: RuleNode] = [:]
      var wildcard: RuleNode?
      for member in members {
        let memberPath = keys.isEmpty ? "/" + member.key : pattern + "/" + member.key
        guard seen.insert(member.key).inserted else {
          throw error(at: memberPath, "the key appears twice", offset: member.keyOffset)
        }
        if member.key.hasPrefix(".") {
          switch member.key {
          case ".read":
            read = try rule(member, path: memberPath, variables: variables, allowsNewData: false)
          case ".write":
            write = try rule(member, path: memberPath, variables: variables, allowsNewData: true)
          case ".validate":
            validate = try rule(member, path: memberPath, variables: variables, allowsNewData: true)
          case ".indexOn":
            try checkIndexOn(member.value, path: memberPath)
          default:
            throw error(
              at: memberPath,
              "unknown rule \(WebcomKey.quoted(member.key)); expected .read, .write, .validate "
                + "or .indexOn",
              offset: member.keyOffset)
          }
        } else if member.key.hasPrefix("$") {
          let name = String(member.key.dropFirst())
          guard Self.isIdentifier(name) else {
            throw error(
              at: memberPath,
              "a wildcard is \"$\" followed by letters, digits and \"_\" (not starting with a "
                + "digit)",
              offset: member.keyOffset)
          }
          guard wildcard == nil else {
            throw error(
              at: memberPath, "a location has at most one $ wildcard", offset: member.keyOffset)
          }
          guard variables[name] == nil else {
            throw error(
              at: memberPath, "the wildcard \(member.key) is already used above",
              offset: member.keyOffset)
          }
          var inner = variables
          inner[name] = keys.count
          wildcard = try node(member.value, keys: keys + [member.key], variables: inner)
        } else {
          if let reason = WebcomKey.invalidityReason(of: member.key.utf8) {
            throw error(
              at: memberPath, "the key \(WebcomKey.quoted(member.key)) is invalid: \(reason)",
              offset: member.keyOffset)
          }
          children[WebcomKey(member.key)] = try node(
            member.value, keys: keys + [member.key], variables: variables)
        }
      }
      return RuleNode(
        read: read, write: write, validate: validate, children: children, wildcard: wildcard,
        pattern: pattern)
    }

    private func rule(
      _ member: RulesDocumentReader.Member, path: String, variables: [String: Int],
      allowsNewData: Bool
    ) throws(WebcomError) -> Rule {
      switch member.value {
      case .bool(let bool, _):
        return Rule(expression: .literal(.bool(bool)), path: path)
      case .string(let source, _):
        do {
          let expression = try RuleParser.parse(
            source, variables: variables, allowsNewData: allowsNewData)
          return Rule(expression: expression, path: path)
        } catch {
          let column = 1 + source.utf8.prefix(error.offset).filter { $0 & 0xC0 != 0x80 }.count
          throw WebcomError(
            .invalidArgument,
            "the rule \(WebcomKey.quoted(path)) is invalid at column \(column) of "
              + "\(Self.excerpt(of: source, around: column)): \(error.message)")
        }
      default:
        throw error(
          at: path,
          "a rule is an expression string or a boolean, not \(member.value.kindDescription)",
          offset: member.value.offset)
      }
    }

    /// The expression quoted, or for a long one the 60 characters around `column` (from 1).
    private static func excerpt(of source: String, around column: Int) -> String {
      let scalars = Array(source.unicodeScalars)
      guard scalars.count > 60 else { return WebcomKey.quoted(source) }
      let start = max(0, min(column - 31, scalars.count - 60))
      let end = min(scalars.count, start + 60)
      var excerpt = String(String.UnicodeScalarView(scalars[start..<end]))
      excerpt = WebcomKey.quoted(excerpt)
      return (start > 0 ? "…" : "") + excerpt + (end < scalars.count ? "…" : "")
    }

    private func checkIndexOn(_ value: RulesDocumentReader.Value, path: String)
      throws(WebcomError)
    {
      switch value {
      case .string:
        return
      case .array(let elements, _):
        for element in elements {
          guard case .string = element else {
            throw error(
              at: path, ".indexOn lists child names as strings, not \(element.kindDescription)",
              offset: element.offset)
          }
        }
      default:
        throw error(
          at: path,
          ".indexOn is a child name or an array of child names, not "
            + value.kindDescription,
          offset: value.offset)
      }
    }

    private static func isIdentifier(_ name: String) -> Bool {
      guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first)
      else { return false }
      return name.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
          true
        default: false
        }
      }
    }
  }
}
