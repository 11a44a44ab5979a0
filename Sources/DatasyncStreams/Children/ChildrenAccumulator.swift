import Datasync

/// The state machine behind `children(as:)`: it decodes the children of child events, marks the
/// end of each write at its value event, and at the end of each delivery (one or more writes
/// that were waiting for the stream's queue) tells what to emit — one emission for all of them.
///
/// The tree is updated once per delivery, not once per event: the changes of the completed
/// writes are applied in one pass (`PersistentOrderedMap.applying(sortedChanges:)`), which copies each
/// node on their paths once. A delivery of m new messages at the end of a chat of n costs one
/// path and m nodes, not m paths, and an initial load is built in O(n).
///
/// `@inlinable`, so that `children(as:)` specialises it, and its map, with the caller's type.
@usableFromInline
struct ChildrenAccumulator<Value> {
  @usableFromInline let decode: (DatasyncValue) -> Value?
  /// The decoded children as of the last delivery.
  @usableFromInline var children = PersistentOrderedMap<KeyValueNode<Value>>()
  /// The changes received since the last delivery, in order: a key's decoded value, or nil when
  /// the child was removed or cannot be decoded.
  @usableFromInline var changes: [(key: WebcomKey, value: Value?)] = []
  /// How many of `changes` belong to completed writes.
  @usableFromInline var completedCount = 0
  @usableFromInline var undecodable: Set<WebcomKey> = []
  /// The number of undecodable children at the last complete write.
  @usableFromInline var completedUndecodableCount = 0
  /// Whether a write completed since the last delivery.
  @usableFromInline var hasCompletedWrite = false
  @usableFromInline var isLoaded = false

  @inlinable
  init(decode: @escaping (DatasyncValue) -> Value?) {
    self.decode = decode
  }

  /// Records a child addition, change or removal.
  @inlinable
  mutating func apply(_ event: DatasyncEvent) {
    guard case .child(let addition, let change, let removal, _) = event.eventType else { return }
    let key = event.key
    if removal {
      changes.append((key, nil))
      forgetUndecodable(key)
    } else if addition || change {
      let value = decode(event.value)
      changes.append((key, value))
      if value == nil {
        undecodable.insert(key)
      } else {
        forgetUndecodable(key)
      }
    }
  }

  /// Drops a key from the undecodable ones; hashes it only when there are some.
  @inlinable
  mutating func forgetUndecodable(_ key: WebcomKey) {
    if !undecodable.isEmpty { undecodable.remove(key) }
  }

  /// Marks the end of a write (or of the initial load): the children as they are now are due
  /// at the end of the delivery.
  @inlinable
  mutating func completeWrite() {
    completedCount = changes.count
    completedUndecodableCount = undecodable.count
    hasCompletedWrite = true
  }

  /// The emission due at the end of a delivery: the first one (the initial load, complete), then
  /// one covering every write completed since the previous emission that changed the decoded
  /// children; nil when nothing changed.
  @inlinable
  mutating func completeDelivery() -> DatasyncChildren<Value>? {
    guard hasCompletedWrite else { return nil }
    hasCompletedWrite = false
    let emission = emission(of: changes[..<completedCount])
    changes.removeFirst(completedCount)
    completedCount = 0
    return emission
  }

  /// Applies the completed changes and returns the emission that tells them.
  @inlinable
  mutating func emission(of completed: ArraySlice<(key: WebcomKey, value: Value?)>)
    -> DatasyncChildren<Value>?
  {
    let emitted = children
    // Keys that arrive in increasing order (an initial load, new messages of a chat) need
    // neither sorting nor deduplicating: they are applied as they are, without a copy.
    let batch =
      zip(completed, completed.dropFirst()).allSatisfy({ $0.key < $1.key })
      ? completed : Self.lastChangePerKey(completed)[...]
    children = children.applying(sortedChanges: batch)
    guard isLoaded else {
      isLoaded = true
      let changes = DatasyncChildrenChanges(
        inserted: Array(0..<children.count), removed: [], updated: [], isInitialLoad: true)
      return DatasyncChildren(
        tree: children, changes: changes, undecodableCount: completedUndecodableCount)
    }
    // One look-up per key, in the emitted children: the batch is in key order, and only its
    // keys enter or leave, so a key's new position is its old one, less the keys before it that
    // left, plus those that entered.
    var inserted: [Int] = []
    var removed: [Int] = []
    var updated: [Int] = []
    for (key, value) in batch {
      let (rank, wasThere) = emitted.search(for: key)
      let position = rank - removed.count + inserted.count
      switch (wasThere, value != nil) {
      case (false, true): inserted.append(position)
      case (true, false): removed.append(rank)
      case (true, true): updated.append(position)
      case (false, false): break
      }
    }
    guard !(inserted.isEmpty && removed.isEmpty && updated.isEmpty) else { return nil }
    // The batch is in key order, so are the positions.
    let changes = DatasyncChildrenChanges(
      inserted: inserted, removed: removed, updated: updated, isInitialLoad: false)
    return DatasyncChildren(
      tree: children, changes: changes, undecodableCount: completedUndecodableCount)
  }

  /// The changes sorted by key, each key once with its last change.
  @inlinable
  static func lastChangePerKey(_ changes: ArraySlice<(key: WebcomKey, value: Value?)>)
    -> [(key: WebcomKey, value: Value?)]
  {
    // Sorted by key, then by arrival: the last of each run of equal keys is the one kept.
    let ordered = changes.indices.sorted { lhs, rhs in
      let order = WebcomKey.order(changes[lhs].key, changes[rhs].key)
      return order != 0 ? order < 0 : lhs < rhs
    }
    var result: [(key: WebcomKey, value: Value?)] = []
    result.reserveCapacity(ordered.count)
    for (position, index) in ordered.enumerated()
    where position + 1 == ordered.count || changes[ordered[position + 1]].key != changes[index].key
    {
      result.append(changes[index])
    }
    return result
  }
}
