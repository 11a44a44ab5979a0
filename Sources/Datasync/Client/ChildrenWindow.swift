/// The children of a node seen through a ``DatasyncChildrenConstraint``.
struct ChildrenWindow {
  /// The node's value.
  let node: JSONValue
  /// The node's children (empty for a leaf or null).
  let object: JSONObject
  /// The ranks of the children inside the window.
  let ranks: Range<Int>
  let constraint: DatasyncChildrenConstraint

  init(node: JSONValue, constraint: DatasyncChildrenConstraint) {
    self.node = node
    self.object = node.children ?? JSONObject()
    self.constraint = constraint
    self.ranks = constraint.window(in: object)
  }

  /// The value of a child when it is inside the window.
  func value(of key: WebcomKey) -> JSONValue? {
    guard let value = object[key] else { return nil }
    if case .all = constraint { return value }
    return ranks.contains(object.rank(of: key)) ? value : nil
  }

  /// The key of the child before `key` inside the window, nil for the first one.
  func previousKey(of key: WebcomKey) -> WebcomKey? {
    if case .all = constraint { return object.key(before: key) }
    let rank = object.rank(of: key)
    return rank > ranks.lowerBound ? object.element(atRank: rank - 1).key : nil
  }

  /// The children inside the window, in key order.
  var elements: JSONObject.Elements { object.elements(in: ranks) }

  /// The keys of at most `count` children at each edge of the window.
  func edgeKeys(_ count: Int) -> [WebcomKey] {
    guard ranks.count > 2 * count else { return elements.map(\.key) }
    let low = object.elements(from: ranks.lowerBound, count: count)
    let high = object.elements(from: ranks.upperBound - count, count: count)
    return low.map(\.key) + high.map(\.key)
  }

  /// The value a value subscription sees: the node itself, or only the window's children.
  var value: JSONValue {
    if case .all = constraint { return node }
    if ranks.isEmpty { return .null }
    if ranks.count == object.count { return .object(object) }
    return .object(JSONObject(Array(elements)))
  }
}
