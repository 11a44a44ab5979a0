extension PersistentOrderedMap {
  /// The map with a batch of changes applied: each key bound to its value, or removed where
  /// its value is `nil`. `changes` must be sorted by key without duplicates.
  ///
  /// One pass over the tree: each node on the path to a changed key is copied once, whatever
  /// the number of changes below it, and keys past the tree's ends are built into balanced
  /// subtrees. A batch of m new keys after every key (a chat's new messages) costs one path and
  /// O(m) nodes, where m insertions would copy m paths. A batch of one change, the usual one,
  /// takes the descent of ``setting(_:for:)`` or ``removing(_:)``, which copies the same path
  /// without slicing the batch at each node.
  @inlinable
  package func applying(sortedChanges changes: ArraySlice<(key: WebcomKey, value: Node.Value?)>)
    -> Self
  {
    guard changes.count == 1, let change = changes.first else {
      return Self(root: Self.apply(changes, to: root))
    }
    guard let value = change.value else { return removing(change.key) }
    return setting(value, for: change.key)
  }

  @inlinable
  static func apply(_ changes: ArraySlice<(key: WebcomKey, value: Node.Value?)>, to node: Node?)
    -> Node?
  {
    // The keys apart, which the search at each node reads in place: reading a change's key out
    // of the batch would copy its value too.
    let keys = changes.map(\.key)
    return keys.withUnsafeBufferPointer { keys in
      apply(changes, keys: keys, changes.indices, to: node)
    }
  }

  /// ``apply(_:to:)`` for `changes[range]`, whose keys are those of `keys` from
  /// `range.lowerBound - changes.startIndex` on.
  @inlinable
  static func apply(
    _ changes: ArraySlice<(key: WebcomKey, value: Node.Value?)>,
    keys: UnsafeBufferPointer<WebcomKey>, _ range: Range<Int>, to node: Node?
  ) -> Node? {
    guard !range.isEmpty else { return node }
    guard let node else {
      let bound = changes[range].compactMap { change -> Element? in
        change.value.map { (key: change.key, value: $0) }
      }
      return build(bound, bound.indices)
    }
    let offset = changes.startIndex
    // The first change whose key is not before the node's.
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
      let middle = low + (high - low) / 2
      if node.order(of: keys[middle - offset]) < 0 {
        low = middle + 1
      } else {
        high = middle
      }
    }
    let hitsNode = low < range.upperBound && node.order(of: keys[low - offset]) == 0
    let left = apply(changes, keys: keys, range.lowerBound..<low, to: node.left)
    let right = apply(
      changes, keys: keys, (hitsNode ? low + 1 : low)..<range.upperBound, to: node.right)
    guard hitsNode else {
      return left === node.left && right === node.right
        ? node : link(node.key, node.value, left, right)
    }
    guard let value = changes[low].value else { return concatenate(left, right) }
    return link(node.key, value, left, right)
  }

  /// A perfectly balanced tree of `elements[range]`, whose keys are strictly increasing.
  @inlinable
  static func build(_ elements: [Element], _ range: Range<Int>) -> Node? {
    guard !range.isEmpty else { return nil }
    let middle = range.lowerBound + range.count / 2
    return Node(
      elements[middle].key, elements[middle].value, build(elements, range.lowerBound..<middle),
      build(elements, middle + 1..<range.upperBound))
  }

  /// The tree of `left`, then the entry, then `right`, whatever their sizes (every key of `left`
  /// before `key`, every key of `right` after it): O(log n).
  @inlinable
  static func link(_ key: WebcomKey, _ value: Node.Value, _ left: Node?, _ right: Node?) -> Node {
    guard let left else {
      var replaced: Node.Value?
      return inserting(key, value, into: right, replaced: &replaced)
    }
    guard let right else {
      var replaced: Node.Value?
      return inserting(key, value, into: left, replaced: &replaced)
    }
    if outweighs(weight(right), weight(left)) {
      return balanced(entryOf: right, link(key, value, left, right.left), right.right)
    }
    if outweighs(weight(left), weight(right)) {
      return balanced(entryOf: left, left.left, link(key, value, left.right, right))
    }
    return Node(key, value, left, right)
  }

  /// The tree of `left` then `right`, whatever their sizes (every key of `left` before those of
  /// `right`): O(log n).
  @inlinable
  static func concatenate(_ left: Node?, _ right: Node?) -> Node? {
    guard let left else { return right }
    guard let right else { return left }
    if outweighs(weight(right), weight(left)) {
      return balanced(entryOf: right, concatenate(left, right.left), right.right)
    }
    if outweighs(weight(left), weight(right)) {
      return balanced(entryOf: left, left.left, concatenate(left.right, right))
    }
    return glued(left, right)
  }
}
