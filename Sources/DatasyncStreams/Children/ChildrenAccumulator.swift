import Datasync

/// The state machine behind `children(as:)`: it applies child events to the decoded children,
/// marks the end of each write at its value event, and at the end of each delivery (one or more
/// writes that were waiting for the stream's queue) tells what to emit — one emission for all of
/// them.
///
/// `@inlinable`, so that `children(as:)` specialises it, and its tree, with the caller's type.
@usableFromInline
struct ChildrenAccumulator<Value> {
  /// The children after the last complete write, and what they need for an emission.
  @usableFromInline
  struct Snapshot {
    @usableFromInline var children: ChildrenTree<Value>
    @usableFromInline var undecodableCount: Int

    @inlinable
    init(children: ChildrenTree<Value>, undecodableCount: Int) {
      self.children = children
      self.undecodableCount = undecodableCount
    }
  }

  @usableFromInline let decode: (DatasyncValue) -> Value?
  /// The decoded children, with `appended` (see ``materialize()``).
  @usableFromInline var children = ChildrenTree<Value>()
  /// Children added to an empty tree in increasing key order (an initial load), not in
  /// `children` yet: they are built into it at once, in O(n), when a write completes or another
  /// kind of change comes.
  @usableFromInline var appended: [(key: WebcomKey, value: Value)] = []
  @usableFromInline var undecodable: Set<WebcomKey> = []
  /// The keys touched since the last complete write.
  @usableFromInline var touched: [WebcomKey] = []
  /// The state at the last complete write not emitted yet, and the keys touched up to it.
  @usableFromInline var completed: Snapshot?
  @usableFromInline var completedTouched: [WebcomKey] = []
  @usableFromInline var emitted = ChildrenTree<Value>()
  @usableFromInline var isLoaded = false

  @inlinable
  init(decode: @escaping (DatasyncValue) -> Value?) {
    self.decode = decode
  }

  /// Applies a child addition, change or removal.
  @inlinable
  mutating func apply(_ event: DatasyncEvent) {
    guard case .child(let addition, let change, let removal, _) = event.eventType else { return }
    let key = event.key
    if removal {
      materialize()
      children = children.removing(key)
      forgetUndecodable(key)
    } else if addition || change {
      let value = decode(event.value)
      // A key past every child of an empty tree (the initial load comes in key order): it is
      // new, so it is appended, or only counted when it cannot be decoded.
      if children.count == 0, appended.last.map({ $0.key < key }) ?? true {
        if let value {
          appended.append((key, value))
          forgetUndecodable(key)
        } else {
          undecodable.insert(key)
        }
      } else {
        materialize()
        if let value {
          children = children.setting(value, for: key)
          forgetUndecodable(key)
        } else {
          children = children.removing(key)
          undecodable.insert(key)
        }
      }
    } else {
      return
    }
    touched.append(key)
  }

  /// Builds the appended children into the (empty) tree.
  @inlinable
  mutating func materialize() {
    guard !appended.isEmpty else { return }
    children = ChildrenTree(increasing: appended)
    appended = []
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
    materialize()
    completed = Snapshot(children: children, undecodableCount: undecodable.count)
    completedTouched.append(contentsOf: touched)
    touched.removeAll(keepingCapacity: true)
  }

  /// The emission due at the end of a delivery: the first one (the initial load, complete), then
  /// one covering every write completed since the previous emission that changed the decoded
  /// children; nil when nothing changed.
  @inlinable
  mutating func completeDelivery() -> DatasyncChildren<Value>? {
    guard let completed else { return nil }
    defer {
      self.completed = nil
      emitted = completed.children
      completedTouched.removeAll(keepingCapacity: true)
    }
    guard isLoaded else {
      isLoaded = true
      let changes = DatasyncChildrenChanges(
        inserted: Array(0..<completed.children.count), removed: [], updated: [],
        isInitialLoad: true)
      return DatasyncChildren(
        tree: completed.children, changes: changes, undecodableCount: completed.undecodableCount)
    }
    var inserted: [Int] = []
    var removed: [Int] = []
    var updated: [Int] = []
    func classify(_ key: WebcomKey) {
      switch (emitted.index(of: key), completed.children.index(of: key)) {
      case (nil, let new?): inserted.append(new)
      case (let old?, nil): removed.append(old)
      case (_?, let new?): updated.append(new)
      case (nil, nil): break
      }
    }
    if completedTouched.count == 1 {
      // One child changed (the common case): nothing to deduplicate or sort.
      classify(completedTouched[0])
    } else {
      var seen = Set<WebcomKey>(minimumCapacity: completedTouched.count)
      for key in completedTouched where seen.insert(key).inserted { classify(key) }
      inserted.sort()
      removed.sort()
      updated.sort()
    }
    guard !(inserted.isEmpty && removed.isEmpty && updated.isEmpty) else { return nil }
    let changes = DatasyncChildrenChanges(
      inserted: inserted, removed: removed, updated: updated, isInitialLoad: false)
    return DatasyncChildren(
      tree: completed.children, changes: changes, undecodableCount: completed.undecodableCount)
  }
}
