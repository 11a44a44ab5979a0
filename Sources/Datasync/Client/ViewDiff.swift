/// The events a change raises on one view: child changes in delivery order, then the value.
struct ViewDiff {
  /// A child whose values before and after the change are known (the change set it whole).
  struct KnownChild {
    let key: WebcomKey
    /// Null where the child was absent.
    let before: JSONValue
    /// Null where the child is absent.
    let after: JSONValue
  }

  /// Removals, then additions, then changes, each group in key order.
  let children: [ChildChange]
  /// Whether value subscriptions get an event.
  let valueChanged: Bool
  /// The window after the change.
  let window: ChildrenWindow

  /// The events of the view at `path` between two trees, nil when nothing it shows changed.
  ///
  /// With ``ViewRelevance/children(_:)`` the cost is O(k log n) for k touched children of a node
  /// of n children; only ``ViewRelevance/whole`` (a write that replaced the node or an ancestor)
  /// compares the two windows entirely.
  ///
  /// When `needsChildChanges` is false and the view shows all the children, only whether the
  /// value changed is computed (`children` is then empty): that is all a view whose subscribers
  /// take value events needs, and it costs O(log n) whatever the change.
  ///
  /// Without `needsPreviousKeys`, the additions and changes of touched children come without
  /// the previous child's key (nil), which spares a descent of the new tree for each.
  ///
  /// `knownChild`, a child the change set whole, spares looking it up in both trees when the
  /// view shows all the children.
  static func compute(
    path: DatasyncPath, constraint: DatasyncChildrenConstraint, relevance: ViewRelevance,
    old: JSONValue, new: JSONValue, needsChildChanges: Bool = true, needsPreviousKeys: Bool = true,
    knownChild: KnownChild? = nil
  ) -> ViewDiff? {
    if !needsChildChanges, case .all = constraint {
      return valueDiff(path: path, relevance: relevance, old: old, new: new)
    }
    let oldWindow = ChildrenWindow(node: old.value(at: path.keys), constraint: constraint)
    let newWindow = ChildrenWindow(node: new.value(at: path.keys), constraint: constraint)
    let changes: [ChildChange]
    let nodeChanged: Bool
    switch relevance {
    case .none:
      return nil
    case .whole, .someChildren:
      // Unnamed children are found by comparing the windows whole.
      nodeChanged = oldWindow.node != newWindow.node
      guard nodeChanged else { return nil }
      changes = wholeDiff(oldWindow, newWindow)
    case .children(let keys):
      nodeChanged = true
      changes = childrenDiff(
        keys, oldWindow, newWindow, needsPreviousKeys: needsPreviousKeys,
        knownChild: constraint == .all ? knownChild : nil)
    }
    let valueChanged: Bool
    if case .all = constraint {
      valueChanged = nodeChanged
    } else {
      valueChanged = !changes.isEmpty
    }
    guard valueChanged || !changes.isEmpty else { return nil }
    return ViewDiff(children: ordered(changes), valueChanged: valueChanged, window: newWindow)
  }

  /// The value event alone of a view showing all the children: a change of some children
  /// changes the value; a change of the whole node changes it when the node differs.
  private static func valueDiff(
    path: DatasyncPath, relevance: ViewRelevance, old: JSONValue, new: JSONValue
  ) -> ViewDiff? {
    let node = new.value(at: path.keys)
    switch relevance {
    case .none:
      return nil
    case .whole:
      guard old.value(at: path.keys) != node else { return nil }
    case .children, .someChildren:
      break
    }
    return ViewDiff(
      children: [], valueChanged: true, window: ChildrenWindow(node: node, constraint: .all))
  }

  /// The replay of a window: one addition per child in key order.
  static func replay(of window: ChildrenWindow) -> [ChildChange] {
    var previous: WebcomKey?
    var changes: [ChildChange] = []
    changes.reserveCapacity(window.ranks.count)
    for (key, value) in window.elements {
      changes.append(ChildChange(kind: .addition, key: key, value: value, previousKey: previous))
      previous = key
    }
    return changes
  }

  private static func childrenDiff(
    _ keys: ChildKeys, _ old: ChildrenWindow, _ new: ChildrenWindow,
    needsPreviousKeys: Bool, knownChild: KnownChild?
  ) -> [ChildChange] {
    func previousKey(of key: WebcomKey) -> WebcomKey? {
      needsPreviousKeys ? new.previousKey(of: key) : nil
    }
    var candidates = keys
    if new.constraint != .all {
      // Untouched children enter or leave the window only by shifting past one of its edges,
      // by at most one position per touched child.
      candidates.formUnion(old.edgeKeys(2 * keys.count))
      candidates.formUnion(new.edgeKeys(2 * keys.count))
    }
    var changes: [ChildChange] = []
    for key in candidates {
      let before: JSONValue?
      let after: JSONValue?
      if let knownChild, knownChild.key == key {
        before = knownChild.before.isNull ? nil : knownChild.before
        after = knownChild.after.isNull ? nil : knownChild.after
      } else {
        before = old.value(of: key)
        after = new.value(of: key)
      }
      switch (before, after) {
      case (let before?, nil):
        changes.append(ChildChange(kind: .removal, key: key, value: before, previousKey: nil))
      case (nil, let after?):
        changes.append(
          ChildChange(
            kind: .addition, key: key, value: after, previousKey: previousKey(of: key))
        )
      case (let before?, let after?) where keys.contains(key) && before != after:
        changes.append(
          ChildChange(kind: .change, key: key, value: after, previousKey: previousKey(of: key)))
      default:
        break
      }
    }
    return changes
  }

  private static func wholeDiff(_ old: ChildrenWindow, _ new: ChildrenWindow) -> [ChildChange] {
    var changes: [ChildChange] = []
    var oldElements = old.elements.makeIterator()
    var newElements = new.elements.makeIterator()
    var oldNext = oldElements.next()
    var newNext = newElements.next()
    var previousNew: WebcomKey?
    while oldNext != nil || newNext != nil {
      let order: Int
      switch (oldNext, newNext) {
      case (let before?, let after?):
        order = before.key < after.key ? -1 : (before.key == after.key ? 0 : 1)
      case (nil, _): order = 1
      case (_, nil): order = -1
      }
      if order < 0, let before = oldNext {
        changes.append(
          ChildChange(kind: .removal, key: before.key, value: before.value, previousKey: nil))
        oldNext = oldElements.next()
      } else if order > 0, let after = newNext {
        changes.append(
          ChildChange(kind: .addition, key: after.key, value: after.value, previousKey: previousNew)
        )
        previousNew = after.key
        newNext = newElements.next()
      } else if let before = oldNext, let after = newNext {
        if before.value != after.value {
          changes.append(
            ChildChange(kind: .change, key: after.key, value: after.value, previousKey: previousNew)
          )
        }
        previousNew = after.key
        oldNext = oldElements.next()
        newNext = newElements.next()
      }
    }
    return changes
  }

  /// Removals, additions, changes; each group in key order.
  private static func ordered(_ changes: [ChildChange]) -> [ChildChange] {
    func rank(_ kind: ChildChange.Kind) -> Int {
      switch kind {
      case .removal: 0
      case .addition: 1
      case .change: 2
      }
    }
    // One change (a write's usual effect) is in order as it is: sorting would copy it.
    guard changes.count > 1 else { return changes }
    return changes.sorted { lhs, rhs in
      rank(lhs.kind) != rank(rhs.kind) ? rank(lhs.kind) < rank(rhs.kind) : lhs.key < rhs.key
    }
  }
}
