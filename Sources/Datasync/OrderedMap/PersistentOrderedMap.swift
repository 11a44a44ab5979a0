/// A persistent map from keys to values, ordered by key order (see ``WebcomKey``), with access
/// by position.
///
/// A weight-balanced binary tree whose nodes record the size of their subtree (Nievergelt and
/// Reingold's trees with the parameters (5/2, 3/2), weight = size + 1:
/// `5/2 × weight(left) ≥ weight(right)` and the converse, so the height is O(log n)). Lookup,
/// update, rank and access by position cost O(log n); a copy costs O(1), and an update copies
/// only the nodes on the path it changes, sharing everything else with the version it came from.
///
/// The nodes are a class of the caller's choice (``OrderedMapNode``): ``JSONObject`` keeps its
/// children in ``JSONObjectNode``s, `children(as:)` keeps decoded children in
/// ``KeyValueNode``s. Every operation is `@inlinable`, so that each is specialised with its
/// node type.
@usableFromInline
package struct PersistentOrderedMap<Node: OrderedMapNode> {
  /// An entry: a key and its value.
  @usableFromInline package typealias Element = (key: WebcomKey, value: Node.Value)

  /// The root of the tree, `nil` when the map is empty.
  @usableFromInline package let root: Node?

  /// The empty map.
  @inlinable
  package init() {
    root = nil
  }

  /// The map whose tree is rooted at `root`.
  @inlinable
  package init(root: Node?) {
    self.root = root
  }

  /// The map of `elements`, whose keys must be strictly increasing, perfectly balanced: O(n),
  /// one node per element (inserting them one by one would copy a path per element).
  @inlinable
  package init(increasing elements: [Element]) {
    root = Self.build(elements, elements.indices)
  }

  /// The number of keys.
  @inlinable
  package var count: Int { root?.count ?? 0 }

  /// Whether the map has no key.
  @inlinable
  package var isEmpty: Bool { root == nil }

  /// Whether both maps share their storage (then they are equal).
  @inlinable
  package func isIdentical(to other: Self) -> Bool { root === other.root }

  /// The value bound to `key`, `nil` when absent.
  @inlinable
  package func value(for key: WebcomKey) -> Node.Value? {
    guard let root else { return nil }
    return Self.value(for: key, under: Unmanaged.passUnretained(root))
  }

  /// The value bound to `key` in the tree under `root`, found without retaining each node on
  /// the way down: the nodes are immutable and `root`, which the caller holds, holds them.
  @inlinable
  package static func value(for key: WebcomKey, under root: Unmanaged<Node>) -> Node.Value? {
    node(for: key, under: root)?._withUnsafeGuaranteedRef { $0.value }
  }

  /// The node of `key` in the tree under `root`, found without retaining any node (see
  /// ``value(for:under:)``); valid while the caller holds `root`.
  @inlinable
  package static func node(for key: WebcomKey, under root: Unmanaged<Node>) -> Unmanaged<Node>? {
    var node = root
    while true {
      var isFound = false
      let next = node._withUnsafeGuaranteedRef { current -> Unmanaged<Node>? in
        let order = current.order(of: key)
        guard order != 0 else {
          isFound = true
          return nil
        }
        guard let next = order < 0 ? current.left : current.right else { return nil }
        return Unmanaged.passUnretained(next)
      }
      if isFound { return node }
      guard let next else { return nil }
      node = next
    }
  }

  /// The number of keys that come before `key` in key order, whether `key` is bound or not.
  @inlinable
  package func rank(of key: WebcomKey) -> Int { search(for: key).rank }

  /// The position of `key` in key order, `nil` when absent.
  @inlinable
  package func index(of key: WebcomKey) -> Int? {
    let (rank, isBound) = search(for: key)
    return isBound ? rank : nil
  }

  /// The number of keys before `key`, and whether `key` is bound: one descent, which retains no
  /// node on the way down (like ``value(for:under:)``).
  @inlinable
  package func search(for key: WebcomKey) -> (rank: Int, isBound: Bool) {
    guard let root else { return (0, false) }
    var rank = 0
    var isBound = false
    var node: Unmanaged<Node>? = Unmanaged.passUnretained(root)
    while let current = node {
      node = current._withUnsafeGuaranteedRef { current in
        let order = current.order(of: key)
        let leftCount = current.left?.count ?? 0
        if order == 0 {
          rank += leftCount
          isBound = true
          return nil
        }
        if order > 0 { rank += leftCount + 1 }
        guard let next = order < 0 ? current.left : current.right else { return nil }
        return Unmanaged.passUnretained(next)
      }
    }
    return (rank, isBound)
  }

  /// The entry at a position in key order; `rank` must be in `0..<count`. The descent retains no
  /// node on the way down (like ``value(for:under:)``).
  @inlinable
  package func element(atRank rank: Int) -> Element {
    precondition(rank >= 0 && rank < count, "rank \(rank) out of 0..<\(count)")
    var remaining = rank
    var found: Element?
    var node: Unmanaged<Node>? = Unmanaged.passUnretained(root!)
    while let current = node {
      node = current._withUnsafeGuaranteedRef { current in
        let leftCount = current.left?.count ?? 0
        if remaining == leftCount {
          found = (current.key, current.value)
          return nil
        }
        if remaining < leftCount { return Unmanaged.passUnretained(current.left!) }
        remaining -= leftCount + 1
        return Unmanaged.passUnretained(current.right!)
      }
    }
    return found!
  }

  /// The greatest key before `key` in key order, `nil` when there is none.
  @inlinable
  package func key(before key: WebcomKey) -> WebcomKey? {
    neighbour(of: key, before: true)
  }

  /// The smallest key after `key` in key order, `nil` when there is none.
  @inlinable
  package func key(after key: WebcomKey) -> WebcomKey? {
    neighbour(of: key, before: false)
  }

  /// The nearest key before `key` (`before`) or after it, found without retaining each node on
  /// the way down, like ``value(for:under:)``, and reading only the key returned.
  @inlinable
  func neighbour(of key: WebcomKey, before: Bool) -> WebcomKey? {
    guard let root else { return nil }
    var candidate: Unmanaged<Node>?
    var node: Unmanaged<Node>? = Unmanaged.passUnretained(root)
    while let current = node {
      node = current._withUnsafeGuaranteedRef { node in
        let order = node.order(of: key)
        let passes = before ? order > 0 : order < 0
        if passes { candidate = current }
        guard let next = passes == before ? node.right : node.left else { return nil }
        return Unmanaged.passUnretained(next)
      }
    }
    return candidate?._withUnsafeGuaranteedRef { $0.key }
  }

  /// The first entry in key order.
  @inlinable
  package var first: Element? {
    guard var node = root else { return nil }
    while let left = node.left { node = left }
    return (node.key, node.value)
  }

  /// The last entry in key order.
  @inlinable
  package var last: Element? {
    guard var node = root else { return nil }
    while let right = node.right { node = right }
    return (node.key, node.value)
  }

  /// Whether the tree's invariants hold (for tests): keys in order, sizes right, every node
  /// weight-balanced.
  package var isValid: Bool {
    guard let root else { return true }
    return Self.isValid(root)
  }

  private static func isValid(_ node: Node) -> Bool {
    let leftWeight = weight(node.left)
    let rightWeight = weight(node.right)
    guard node.count == leftWeight + rightWeight - 1,
      !outweighs(leftWeight, rightWeight), !outweighs(rightWeight, leftWeight)
    else { return false }
    if let left = node.left {
      guard isValid(left), PersistentOrderedMap(root: left).last!.key < node.key else {
        return false
      }
    }
    if let right = node.right {
      guard isValid(right), node.key < PersistentOrderedMap(root: right).first!.key else {
        return false
      }
    }
    return true
  }
}

extension PersistentOrderedMap: Sendable where Node: Sendable {}
