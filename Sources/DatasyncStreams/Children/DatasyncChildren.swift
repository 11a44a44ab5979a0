import Datasync

/// The children of a node, decoded, in key order — one emission of `children(as:)`.
///
/// A random-access collection of `(key, value)` pairs in the key order of the database (integer
/// keys first, numerically, then the others), with lookup by key. It never holds a key twice.
/// Access by position and by key costs O(log n); a whole iteration O(n). ``changes`` tells what
/// changed since the previous emission. Children whose value cannot be decoded as `Value` are left
/// out and counted in ``undecodableCount``.
///
/// ```swift
/// for (key, message) in children { print(key, message.text) }
/// let latest = children.last?.value
/// let mine = children["-Nabc…"]
/// ```
public struct DatasyncChildren<Value>: RandomAccessCollection {
  public typealias Element = (key: WebcomKey, value: Value)
  public typealias Index = Int
  public typealias Indices = Range<Int>

  @usableFromInline let tree: PersistentOrderedMap<KeyValueNode<Value>>

  /// What changed since the previous emission.
  public let changes: DatasyncChildrenChanges

  /// How many children of the node were left out because they could not be decoded.
  public let undecodableCount: Int

  @inlinable
  init(
    tree: PersistentOrderedMap<KeyValueNode<Value>>, changes: DatasyncChildrenChanges,
    undecodableCount: Int
  ) {
    self.tree = tree
    self.changes = changes
    self.undecodableCount = undecodableCount
  }

  @inlinable
  public var startIndex: Int { 0 }
  @inlinable
  public var endIndex: Int { tree.count }
  @inlinable
  public var count: Int { tree.count }

  @inlinable
  public subscript(position: Int) -> Element {
    precondition(position >= 0 && position < tree.count, "Index \(position) out of range")
    return tree.element(atRank: position)
  }

  /// The value of the child with `key`, or nil when there is none.
  @inlinable
  public subscript(key: WebcomKey) -> Value? {
    tree.value(for: key)
  }

  /// The position of the child with `key`, or nil when there is none.
  @inlinable
  public func index(forKey key: WebcomKey) -> Int? {
    tree.index(of: key)
  }

  /// The keys, in order.
  @inlinable
  public var keys: [WebcomKey] { tree.map(\.key) }

  /// The values, in key order.
  @inlinable
  public var values: [Value] { tree.map(\.value) }

  /// Iterates in key order, O(n) for a whole iteration.
  public struct Iterator: IteratorProtocol {
    @usableFromInline var base: PersistentOrderedMap<KeyValueNode<Value>>.Iterator

    @inlinable
    init(base: PersistentOrderedMap<KeyValueNode<Value>>.Iterator) {
      self.base = base
    }

    @inlinable
    public mutating func next() -> Element? {
      base.next()
    }
  }

  @inlinable
  public func makeIterator() -> Iterator {
    Iterator(base: tree.makeIterator())
  }
}

extension DatasyncChildren: Sendable where Value: Sendable {}
