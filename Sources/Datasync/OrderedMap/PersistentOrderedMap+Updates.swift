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

  /// The tree under `root` with `key` bound to `value`: one descent that retains no node,
  /// recording the path, then the path copied bottom-up, each copy rebalanced; `root` itself
  /// when the node keeps its value (``OrderedMapNode/keeps(_:whenSetTo:)``). The path is kept
  /// on the stack (``maximumHeight`` nodes fit in the 1 KiB a temporary allocation may take
  /// there), its turns in the bits of one integer.
  @inlinable
  static func inserting(
    _ key: WebcomKey, _ value: Node.Value, into root: Node?, replaced: inout Node.Value?
  ) -> Node {
    guard let root else { return Node(key, value, nil, nil) }
    return withUnsafeTemporaryAllocation(of: Unmanaged<Node>.self, capacity: maximumHeight) {
      path in
      var depth = 0
      var wentLeft: UInt128 = 0
      var next: Unmanaged<Node>? = Unmanaged.passUnretained(root)
      var isBound = false
      var rebuilt: Node?
      while let current = next {
        next = current._withUnsafeGuaranteedRef { node -> Unmanaged<Node>? in
          let order = node.order(of: key)
          guard order != 0 else {
            isBound = true
            replaced = node.value
            if !Node.keeps(node.value, whenSetTo: value) {
              rebuilt = Node(key, value, node.left, node.right)
            }
            return nil
          }
          precondition(depth < maximumHeight, "a tree higher than its balance allows")
          path[depth] = current
          if order < 0 { wentLeft |= 1 << depth }
          depth += 1
          guard let child = order < 0 ? node.left : node.right else { return nil }
          return Unmanaged.passUnretained(child)
        }
      }
      if !isBound {
        rebuilt = Node(key, value, nil, nil)
      }
      guard rebuilt != nil else { return root }
      while depth > 0 {
        depth -= 1
        let isLeft = wentLeft & (1 << depth) != 0
        rebuilt = path[depth]._withUnsafeGuaranteedRef { node in
          // Taken out, so that it moves into its parent instead of being copied there.
          let child = rebuilt.take()
          return isLeft
            ? balanced(entryOf: node, child, node.right)
            : balanced(entryOf: node, node.left, child)
        }
      }
      return rebuilt!
    }
  }

  /// The greatest height of a tree the path of an insertion can hold: no subtree keeps more than
  /// 5/7 of its parent's weight (``outweighs(_:_:)``), so a tree of n nodes is at most
  /// log(n + 1) / log(7 / 5) high, less than 96 below 10^14 nodes.
  @inlinable
  static var maximumHeight: Int { 96 }

  @inlinable
  static func removing(_ key: WebcomKey, from node: Node?) -> Node? {
    guard let node else { return nil }
    let order = node.order(of: key)
    if order < 0 {
      let left = removing(key, from: node.left)
      return left === node.left ? node : balanced(entryOf: node, left, node.right)
    }
    if order > 0 {
      let right = removing(key, from: node.right)
      return right === node.right ? node : balanced(entryOf: node, node.left, right)
    }
    return glued(node.left, node.right)
  }

  // MARK: Balancing

  /// Whether a subtree of weight `heavy` weighs more than the balance lets it weigh beside one of
  /// weight `light`: more than δ = 5/2 times as much. With δ = 5/2 (and γ = 3/2, see
  /// ``rotatesOnce(inner:outer:)``) rather than the integer pair (3, 2), a subtree keeps at most
  /// 5/7 of its parent's weight instead of 3/4: keys added in increasing order (push
  /// identifiers) leave a right spine about 15% shorter, so each later addition copies fewer
  /// nodes. Both pairs lie in the range proven to keep every tree balanced under insertions and
  /// removals (Hirai and Yamamoto, "Balancing weight-balanced trees", 2011); the tests check the
  /// joins of ``link(_:_:_:_:)`` and ``concatenate(_:_:)`` too.
  @inlinable @inline(__always)
  static func outweighs(_ heavy: Int, _ light: Int) -> Bool { 2 * heavy > 5 * light }

  /// Whether a subtree that outweighs its sibling is rebalanced by a single rotation: when its
  /// inner child weighs less than γ = 3/2 times its outer child; otherwise by a double rotation.
  @inlinable @inline(__always)
  static func rotatesOnce(inner: Int, outer: Int) -> Bool { 2 * inner < 3 * outer }

  @inlinable @inline(__always)
  static func weight(_ node: Node?) -> Int { (node?.count ?? 0) + 1 }

  /// A node of the entry of `entry` (a node of the tree, whose entry is copied without rebuilding
  /// its key: ``OrderedMapNode/init(entryOf:_:_:)``) and subtrees that are at most one update
  /// away from balance, rebalanced by one single or double rotation. The subtrees are consumed,
  /// so that each moves into the node that keeps it without another retain.
  @inlinable
  static func balanced(entryOf entry: Node, _ left: consuming Node?, _ right: consuming Node?)
    -> Node
  {
    let leftWeight = weight(left)
    let rightWeight = weight(right)
    if outweighs(rightWeight, leftWeight), let right {
      if rotatesOnce(inner: weight(right.left), outer: weight(right.right)) {
        return Node(entryOf: right, Node(entryOf: entry, left, right.left), right.right)
      }
      let middle = right.left!
      return Node(
        entryOf: middle, Node(entryOf: entry, left, middle.left),
        Node(entryOf: right, middle.right, right.right))
    }
    if outweighs(leftWeight, rightWeight), let left {
      if rotatesOnce(inner: weight(left.right), outer: weight(left.left)) {
        return Node(entryOf: left, left.left, Node(entryOf: entry, left.right, right))
      }
      let middle = left.right!
      return Node(
        entryOf: middle, Node(entryOf: left, left.left, middle.left),
        Node(entryOf: entry, middle.right, right))
    }
    return Node(entryOf: entry, left, right)
  }

  /// The concatenation of two trees balanced with each other, every key of `left` before those
  /// of `right`.
  @inlinable
  static func glued(_ left: Node?, _ right: Node?) -> Node? {
    guard let left else { return right }
    guard let right else { return left }
    if left.count > right.count {
      let (last, rest) = removingLast(left)
      return balanced(entryOf: last, rest, right)
    }
    let (first, rest) = removingFirst(right)
    return balanced(entryOf: first, left, rest)
  }

  /// The tree without its first node, and that node.
  @inlinable
  static func removingFirst(_ node: Node) -> (first: Node, rest: Node?) {
    guard let left = node.left else { return (node, node.right) }
    let (first, rest) = removingFirst(left)
    return (first, balanced(entryOf: node, rest, node.right))
  }

  /// The tree without its last node, and that node.
  @inlinable
  static func removingLast(_ node: Node) -> (last: Node, rest: Node?) {
    guard let right = node.right else { return (node, node.left) }
    let (last, rest) = removingLast(right)
    return (last, balanced(entryOf: node, node.left, rest))
  }
}
