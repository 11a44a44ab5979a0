import Datasync

/// The state machine behind `children(as:)`: it applies child events to the decoded children and,
/// at each value event (the end of a write, or of the initial load), tells what to emit.
struct ChildrenAccumulator<Value> {
  private let decode: (DatasyncValue) -> Value?
  private var children = ChildrenTree<Value>()
  private var emitted = ChildrenTree<Value>()
  private var touched: [WebcomKey] = []
  private var undecodable: Set<WebcomKey> = []
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
      undecodable.remove(key)
    } else if addition || change {
      if let value = decode(event.value) {
        children = children.setting(value, for: key)
        undecodable.remove(key)
      } else {
        children = children.removing(key)
        undecodable.insert(key)
      }
    } else {
      return
    }
    touched.append(key)
  }

  /// The emission due at a value event: the first one (the initial load, complete), then one for
  /// each batch of child events that changed the decoded children; nil when nothing changed.
  mutating func completeBatch() -> DatasyncChildren<Value>? {
    defer {
      emitted = children
      touched.removeAll(keepingCapacity: true)
    }
    guard isLoaded else {
      isLoaded = true
      let changes = DatasyncChildrenChanges(
        inserted: Array(0..<children.count), removed: [], updated: [], isInitialLoad: true)
      return DatasyncChildren(tree: children, changes: changes, undecodableCount: undecodable.count)
    }
    var inserted: [Int] = []
    var removed: [Int] = []
    var updated: [Int] = []
    var seen = Set<WebcomKey>()
    for key in touched where seen.insert(key).inserted {
      switch (emitted.index(of: key), children.index(of: key)) {
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
    return DatasyncChildren(tree: children, changes: changes, undecodableCount: undecodable.count)
  }
}
