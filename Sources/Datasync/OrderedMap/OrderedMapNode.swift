/// A node of the persistent weight-balanced tree behind ``PersistentOrderedMap``.
///
/// Nodes are immutable and shared between versions of a map. A conforming class chooses its
/// layout: ``JSONObjectNode`` stores its key in parts to fit a small malloc size class,
/// ``KeyValueNode`` stores a key and a value of any type. The map's algorithms (lookups,
/// updates, rebalancing, batches) are written once, over these requirements.
@usableFromInline
package protocol OrderedMapNode: AnyObject {
  /// The type of the values the map binds to its keys.
  associatedtype Value

  /// A node with an entry and its subtrees: every key of `left` comes before `key`, every key
  /// of `right` after it.
  init(_ key: WebcomKey, _ value: Value, _ left: Self?, _ right: Self?)

  /// A node with the entry of `entry` and other subtrees (an update copying the path to a
  /// change, a rotation): the entry is copied as it is stored, without rebuilding the key.
  init(entryOf entry: borrowing Self, _ left: Self?, _ right: Self?)

  /// The key of the node's entry.
  var key: WebcomKey { get }

  /// The value of the node's entry.
  var value: Value { get }

  /// The subtree of the keys before ``key``.
  var left: Self? { get }

  /// The subtree of the keys after ``key``.
  var right: Self? { get }

  /// The number of nodes of the subtree rooted here.
  var count: Int { get }

  /// The order of `key` relative to the node's key: negative when `key` comes first, zero when
  /// it is the node's key, positive when it comes after.
  func order(of key: WebcomKey) -> Int

  /// Whether binding a key to `new` where it is bound to `old` leaves the map as it is, so that
  /// the update shares the old node instead of copying its path. False unless the values can
  /// tell (``JSONValue`` compares its storage).
  static func keeps(_ old: Value, whenSetTo new: Value) -> Bool
}

extension OrderedMapNode {
  @inlinable
  package static func keeps(_ old: Value, whenSetTo new: Value) -> Bool { false }

  @inlinable
  package func order(of key: WebcomKey) -> Int { WebcomKey.order(key, self.key) }

  /// Calls `body` with each node of the subtree in key order, without allocating.
  @inlinable
  package func forEachInOrder(_ body: (Self) throws -> Void) rethrows {
    _ = try firstInOrder { node -> Never? in
      try body(node)
      return nil
    }
  }

  /// The first result `body` gives (not nil) for a node of the subtree, in key order: the walk
  /// stops there, and allocates nothing.
  @inlinable
  package func firstInOrder<Result>(_ body: (Self) throws -> Result?) rethrows -> Result? {
    if let left, let found = try left.firstInOrder(body) { return found }
    if let found = try body(self) { return found }
    return try right?.firstInOrder(body)
  }
}
