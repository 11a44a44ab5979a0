/// A node of the tree as a rule sees it (`root`, `data`, `newData` and what their methods give).
///
/// Its path is the first `depth` keys of the rule's location followed by `extra` keys, so that
/// the snapshots a rule starts from need no path of their own and a literal `child()` path is
/// shared rather than copied.
struct RuleSnapshot: Sendable {
  /// Whether the node is read in the tree after the operation (else before).
  let isNew: Bool
  /// The node's value.
  let value: JSONValue
  /// The number of keys of the rule's location that start the node's path.
  let depth: Int
  /// The keys that follow them.
  let extra: ArraySlice<WebcomKey>

  /// The number of keys of the node's path.
  var pathDepth: Int { depth + extra.count }
}
