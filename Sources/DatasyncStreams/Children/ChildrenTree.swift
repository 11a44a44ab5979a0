import Datasync

/// A persistent ordered map from keys to values with positional access.
///
/// A weight-balanced binary tree whose nodes record their subtree size: lookup, insertion,
/// removal, rank and access by position each cost O(log n), and a copy costs O(1) because
/// updates copy only the path they change.
///
/// It is `@usableFromInline` with `@inlinable` operations, so that `children(as:)` specialises it
/// with the caller's type: unspecialised, every node made or dropped looks up the generic
/// metadata of its class and copies its value through value witnesses.
@usableFromInline
struct ChildrenTree<Value> {
  @usableFromInline
  final class Node {
    @usableFromInline let key: WebcomKey
    @usableFromInline let value: Value
    @usableFromInline let left: Node?
    @usableFromInline let right: Node?
    @usableFromInline let size: Int

    @inlinable
    init(_ key: WebcomKey, _ value: Value, _ left: Node?, _ right: Node?) {
      self.key = key
      self.value = value
      self.left = left
      self.right = right
      size = (left?.size ?? 0) + (right?.size ?? 0) + 1
    }
  }

  @usableFromInline let root: Node?

  @inlinable
  init() {
    root = nil
  }

  @inlinable
  init(root: Node?) {
    self.root = root
  }

  @inlinable
  var count: Int { root?.size ?? 0 }

  @inlinable
  func value(for key: WebcomKey) -> Value? {
    var node = root
    while let current = node {
      let order = WebcomKey.order(key, current.key)
      if order == 0 { return current.value }
      node = order < 0 ? current.left : current.right
    }
    return nil
  }

  /// The position of `key`, or nil when absent.
  @inlinable
  func index(of key: WebcomKey) -> Int? {
    var node = root
    var before = 0
    while let current = node {
      let order = WebcomKey.order(key, current.key)
      if order < 0 {
        node = current.left
      } else if order > 0 {
        before += (current.left?.size ?? 0) + 1
        node = current.right
      } else {
        return before + (current.left?.size ?? 0)
      }
    }
    return nil
  }

  /// The element at `index`, which must be in `0..<count`.
  @inlinable
  func element(at index: Int) -> (key: WebcomKey, value: Value) {
    var node = root
    var remaining = index
    while let current = node {
      let leftSize = current.left?.size ?? 0
      if remaining < leftSize {
        node = current.left
      } else if remaining == leftSize {
        return (current.key, current.value)
      } else {
        remaining -= leftSize + 1
        node = current.right
      }
    }
    preconditionFailure("Index \(index) out of range 0..<\(count)")
  }

  /// The tree of `elements`, whose keys must be strictly increasing, perfectly balanced: O(n),
  /// one node per element (inserting them one by one would copy a path per element).
  @inlinable
  init(increasing elements: [(key: WebcomKey, value: Value)]) {
    root = Self.build(elements, elements.indices)
  }

  @inlinable
  static func build(_ elements: [(key: WebcomKey, value: Value)], _ range: Range<Int>) -> Node? {
    guard !range.isEmpty else { return nil }
    let middle = range.lowerBound + range.count / 2
    return Node(
      elements[middle].key, elements[middle].value, build(elements, range.lowerBound..<middle),
      build(elements, middle + 1..<range.upperBound))
  }

  @inlinable
  func setting(_ value: Value, for key: WebcomKey) -> ChildrenTree {
    ChildrenTree(root: Self.insert(key, value, into: root))
  }

  @inlinable
  func removing(_ key: WebcomKey) -> ChildrenTree {
    ChildrenTree(root: Self.remove(key, from: root))
  }

  /// The tree with a batch of changes applied: each key bound to its value, or removed where
  /// its value is nil. `changes` must be sorted by key without duplicates.
  ///
  /// One pass over the tree: each node on the path to a changed key is copied once, whatever
  /// the number of changes below it, and keys past the tree's ends are built into balanced
  /// subtrees. A batch of m new keys after every key (a chat's new messages) costs one path and
  /// O(m) nodes, where m insertions would copy m paths.
  @inlinable
  func applying(sortedChanges changes: ArraySlice<(key: WebcomKey, value: Value?)>)
    -> ChildrenTree
  {
    ChildrenTree(root: Self.apply(changes, to: root))
  }

  @inlinable
  static func apply(_ changes: ArraySlice<(key: WebcomKey, value: Value?)>, to node: Node?)
    -> Node?
  {
    guard !changes.isEmpty else { return node }
    guard let node else {
      let bound = changes.compactMap { change in change.value.map { (change.key, $0) } }
      return build(bound, bound.indices)
    }
    // The first change whose key is not before the node's.
    var low = changes.startIndex
    var high = changes.endIndex
    while low < high {
      let middle = low + (high - low) / 2
      if WebcomKey.order(changes[middle].key, node.key) < 0 {
        low = middle + 1
      } else {
        high = middle
      }
    }
    let hitsNode = low < changes.endIndex && changes[low].key == node.key
    let left = apply(changes[..<low], to: node.left)
    let right = apply(changes[(hitsNode ? low + 1 : low)...], to: node.right)
    guard hitsNode else {
      return left === node.left && right === node.right
        ? node : link(node.key, node.value, left, right)
    }
    guard let value = changes[low].value else { return concatenate(left, right) }
    return link(node.key, value, left, right)
  }

  /// The tree of `left`, then the entry, then `right`, whatever their sizes (every key of `left`
  /// before `key`, every key of `right` after it): O(log n).
  @inlinable
  static func link(_ key: WebcomKey, _ value: Value, _ left: Node?, _ right: Node?) -> Node {
    guard let left else { return insert(key, value, into: right) }
    guard let right else { return insert(key, value, into: left) }
    if 3 * weight(left) < weight(right) {
      return balance(right.key, right.value, link(key, value, left, right.left), right.right)
    }
    if 3 * weight(right) < weight(left) {
      return balance(left.key, left.value, left.left, link(key, value, left.right, right))
    }
    return Node(key, value, left, right)
  }

  /// The tree of `left` then `right`, whatever their sizes (every key of `left` before those of
  /// `right`): O(log n).
  @inlinable
  static func concatenate(_ left: Node?, _ right: Node?) -> Node? {
    guard let left else { return right }
    guard let right else { return left }
    if 3 * weight(left) < weight(right) {
      return balance(right.key, right.value, concatenate(left, right.left), right.right)
    }
    if 3 * weight(right) < weight(left) {
      return balance(left.key, left.value, left.left, concatenate(left.right, right))
    }
    return glue(left, right)
  }

  // MARK: Balancing (weight-balanced tree, parameters delta = 3, ratio = 2)

  @inlinable
  static func weight(_ node: Node?) -> Int { (node?.size ?? 0) + 1 }

  @inlinable
  static func insert(_ key: WebcomKey, _ value: Value, into node: Node?) -> Node {
    guard let node else { return Node(key, value, nil, nil) }
    let order = WebcomKey.order(key, node.key)
    if order < 0 {
      return balance(node.key, node.value, insert(key, value, into: node.left), node.right)
    } else if order > 0 {
      return balance(node.key, node.value, node.left, insert(key, value, into: node.right))
    } else {
      return Node(key, value, node.left, node.right)
    }
  }

  @inlinable
  static func remove(_ key: WebcomKey, from node: Node?) -> Node? {
    guard let node else { return nil }
    let order = WebcomKey.order(key, node.key)
    if order < 0 {
      guard let left = node.left else { return node }
      let newLeft = remove(key, from: left)
      return newLeft === left ? node : balance(node.key, node.value, newLeft, node.right)
    } else if order > 0 {
      guard let right = node.right else { return node }
      let newRight = remove(key, from: right)
      return newRight === right ? node : balance(node.key, node.value, node.left, newRight)
    } else {
      return glue(node.left, node.right)
    }
  }

  @inlinable
  static func glue(_ left: Node?, _ right: Node?) -> Node? {
    guard let left else { return right }
    guard let right else { return left }
    if left.size > right.size {
      let (key, value, rest) = removeMax(left)
      return balance(key, value, rest, right)
    } else {
      let (key, value, rest) = removeMin(right)
      return balance(key, value, left, rest)
    }
  }

  @inlinable
  static func removeMin(_ node: Node) -> (WebcomKey, Value, Node?) {
    guard let left = node.left else { return (node.key, node.value, node.right) }
    let (key, value, rest) = removeMin(left)
    return (key, value, balance(node.key, node.value, rest, node.right))
  }

  @inlinable
  static func removeMax(_ node: Node) -> (WebcomKey, Value, Node?) {
    guard let right = node.right else { return (node.key, node.value, node.left) }
    let (key, value, rest) = removeMax(right)
    return (key, value, balance(node.key, node.value, node.left, rest))
  }

  @inlinable
  static func balance(_ key: WebcomKey, _ value: Value, _ left: Node?, _ right: Node?)
    -> Node
  {
    let leftWeight = weight(left)
    let rightWeight = weight(right)
    if leftWeight + rightWeight <= 3 {
      return Node(key, value, left, right)
    }
    if rightWeight > 3 * leftWeight, let right {
      if weight(right.left) < 2 * weight(right.right) {
        return Node(right.key, right.value, Node(key, value, left, right.left), right.right)
      }
      let middle = right.left!
      return Node(
        middle.key, middle.value, Node(key, value, left, middle.left),
        Node(right.key, right.value, middle.right, right.right))
    }
    if leftWeight > 3 * rightWeight, let left {
      if weight(left.right) < 2 * weight(left.left) {
        return Node(left.key, left.value, left.left, Node(key, value, left.right, right))
      }
      let middle = left.right!
      return Node(
        middle.key, middle.value, Node(left.key, left.value, left.left, middle.left),
        Node(key, value, middle.right, right))
    }
    return Node(key, value, left, right)
  }
}

extension ChildrenTree: Sequence {
  /// In-order traversal with an explicit stack: O(n) for a whole iteration.
  @usableFromInline
  struct Iterator: IteratorProtocol {
    @usableFromInline var stack: [Node] = []

    @inlinable
    init(root: Node?) {
      descend(from: root)
    }

    @inlinable
    mutating func descend(from node: Node?) {
      var node = node
      while let current = node {
        stack.append(current)
        node = current.left
      }
    }

    @inlinable
    mutating func next() -> (key: WebcomKey, value: Value)? {
      guard let node = stack.popLast() else { return nil }
      descend(from: node.right)
      return (node.key, node.value)
    }
  }

  @inlinable
  func makeIterator() -> Iterator {
    Iterator(root: root)
  }
}

extension ChildrenTree.Node: Sendable where Value: Sendable {}
extension ChildrenTree: Sendable where Value: Sendable {}
