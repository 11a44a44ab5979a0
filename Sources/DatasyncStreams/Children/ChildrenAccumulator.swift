import Datasync

/// The state machine behind `children(as:)`: it applies child events to the decoded children,
/// marks the end of each write at its value event, and at the end of each delivery (one or more
/// writes that were waiting for the stream's queue) tells what to emit — one emission for all of
/// them.
struct ChildrenAccumulator<Value> {
  /// The children after the last complete write, and what they need for an emission.
  private struct Snapshot {
    var children = ChildrenTree<Value>()
    var undecodableCount = 0
  }

  private let decode: (DatasyncValue) -> Value?
  private var children = ChildrenTree<Value>()
  private var undecodable: Set<WebcomKey> = []
  /// The keys touched since the last complete write.
  private var touched: [WebcomKey] = []
  /// The state at the last complete write not emitted yet, and the keys touched up to it.
  private var completed: Snapshot?
  private var completedTouched: [WebcomKey] = []
  private var emitted = ChildrenTree<Value>()
  private var isLoaded = false

  init(decode: @escaping (DatasyncValue) -> Value?) {
    self.decode = decode
  }

  /// Applies a child addition, change or removal.
  mutating func apply(_ event: DatasyncEvent) {
    guard case .child(let addition, let change, let removal, _) = event.eventType else { return }
    let key = event.key
    if removal {
      children = children.removing(key)
      forgetUndecodable(key)
    } else if addition || change {
      if let value = decode(event.value) {
        children = children.setting(value, for: key)
        forgetUndecodable(key)
      } else {
        children = children.removing(key)
        undecodable.insert(key)
      }
    } else {
      return
    }
    touched.append(key)
  }

  /// Drops a key from the undecodable ones; hashes it only when there are some.
  private mutating func forgetUndecodable(_ key: WebcomKey) {
    if !undecodable.isEmpty { undecodable.remove(key) }
  }

  /// Marks the end of a write (or of the initial load): the children as they are now are due
  /// at the end of the delivery.
  mutating func completeWrite() {
    completed = Snapshot(children: children, undecodableCount: undecodable.count)
    completedTouched.append(contentsOf: touched)
    touched.removeAll(keepingCapacity: true)
  }

  /// The emission due at the end of a delivery: the first one (the initial load, complete), then
  /// one covering every write completed since the previous emission that changed the decoded
  /// children; nil when nothing changed.
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
    var seen = Set<WebcomKey>(minimumCapacity: completedTouched.count)
    for key in completedTouched where seen.insert(key).inserted {
      switch (emitted.index(of: key), completed.children.index(of: key)) {
      case (nil, let new?): inserted.append(new)
      case (let old?, nil): removed.append(old)
      case (_?, let new?): updated.append(new)
      case (nil, nil): break
      }
    }
    guard !(inserted.isEmpty && removed.isEmpty && updated.isEmpty) else { return nil }
    let changes = DatasyncChildrenChanges(
      inserted: inserted.sorted(), removed: removed.sorted(), updated: updated.sorted(),
      isInitialLoad: false)
    return DatasyncChildren(
      tree: completed.children, changes: changes, undecodableCount: completed.undecodableCount)
  }
}
