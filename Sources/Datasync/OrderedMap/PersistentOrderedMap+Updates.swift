extension PersistentOrderedMap {
  /// The map with `key` bound to `value`, inserted or replaced.
  @inlinable
  package func setting(_ value: Node.Value, for key: WebcomKey) -> Self {
    settingReturningReplaced(value, for: key).result
  }

  /// ``setting(_:for:)``, with the value `key` was bound to (`nil` when absent), found while
  /// inserting: one descent instead of a lookup and an insertion. The result is identical to
  /// the map when the node keeps its value (``OrderedMapNode/keeps(_:whenSetTo:)``).
  @inlinable
  package func settingReturningReplaced(_ value: Node.Value, for key: WebcomKey) -> (
    result: Self, replaced: Node.Value?
  ) {
    var replaced: Node.Value?
    let root = Self.inserting(key, value, into: root, replaced: &replaced)
    return (Self(root: root), replaced)
  }

  /// The map without `key`; the same map, sharing its storage, when `key` is absent.
  @inlinable
  package func removing(_ key: WebcomKey) -> Self {
    Self(root: Self.removing(key, from: root))
  }

  @inlinable
  static func inserting(
    _ key: WebcomKey, _ value: Node.Value, into node: Node?, replaced: inout Node.Value?
  ) -> Node {
    guard let node else { return Node(key, value, nil, nil) }
    let order = node.order(of: key)
    if order < 0 {
      let left = inserting(key, value, into: node.left, replaced: &replaced)
      return left === node.left ? node : balanced(node.key, node.value, left, node.right)
    }
    if order > 0 {
      let right = inserting(key, value, into: node.right, replaced: &replaced)
      return right === node.right ? node : balanced(node.key, node.value, node.left, right)
    }
    replaced = node.value
    return Node.keeps(node.value, whenSetTo: value) ? node : Node(key, value, node.left, node.right)
  }

  @inlinable
  static func removing(_ key: WebcomKey, from node: Node?) -> Node? {
    guard let node else { return nil }
    let order = node.order(of: key)
    if order < 0 {
      let left = removing(key, from: node.left)
      return left === node.left ? node : balanced(node.key, node.value, left, node.right)
    }
    if order > 0 {
      let right = removing(key, from: node.right)
      return right === node.right ? node : balanced(node.key, node.value, node.left, right)
    }
    return glued(node.left, node.right)
  }

  // MARK: Balancing

  /// The balance parameter: neither subtree weighs more than `delta` times the other.
  @inlinable
  static var delta: Int { 3 }

  /// The rotation parameter: a single rotation when the outer grandchild weighs more than
  /// `1 / ratio` of its sibling, a double one otherwise.
  @inlinable
  static var ratio: Int { 2 }

  @inlinable @inline(__always)
  static func weight(_ node: Node?) -> Int { (node?.count ?? 0) + 1 }

  /// A node of the entry and subtrees that are at most one update away from balance,
  /// rebalanced by one single or double rotation.
  @inlinable
  static func balanced(_ key: WebcomKey, _ value: Node.Value, _ left: Node?, _ right: Node?)
    -> Node
  {
    let leftWeight = weight(left)
    let rightWeight = weight(right)
    if rightWeight > delta * leftWeight, let right {
      if weight(right.left) < ratio * weight(right.right) {
        return Node(right.key, right.value, Node(key, value, left, right.left), right.right)
      }
      let middle = right.left!
      return Node(
        middle.key, middle.value, Node(key, value, left, middle.left),
        Node(right.key, right.value, middle.right, right.right))
    }
    if leftWeight > delta * rightWeight, let left {
      if weight(left.right) < ratio * weight(left.left) {
        return Node(left.key, left.value, left.left, Node(key, value, left.right, right))
      }
      let middle = left.right!
      return Node(
        middle.key, middle.value, Node(left.key, left.value, left.left, middle.left),
        Node(key, value, middle.right, right))
    }
    return Node(key, value, left, right)
  }

  /// The concatenation of two trees balanced with each other, every key of `left` before those
  /// of `right`.
  @inlinable
  static func glued(_ left: Node?, _ right: Node?) -> Node? {
    guard let left else { return right }
    guard let right else { return left }
    if left.count > right.count {
      let (key, value, rest) = removingLast(left)
      return balanced(key, value, rest, right)
    }
    let (key, value, rest) = removingFirst(right)
    return balanced(key, value, left, rest)
  }

  @inlinable
  static func removingFirst(_ node: Node) -> (WebcomKey, Node.Value, Node?) {
    guard let left = node.left else { return (node.key, node.value, node.right) }
    let (key, value, rest) = removingFirst(left)
    return (key, value, balanced(node.key, node.value, rest, node.right))
  }

  @inlinable
  static func removingLast(_ node: Node) -> (WebcomKey, Node.Value, Node?) {
    guard let right = node.right else { return (node.key, node.value, node.left) }
    let (key, value, rest) = removingLast(right)
    return (key, value, balanced(node.key, node.value, node.left, rest))
  }
}
