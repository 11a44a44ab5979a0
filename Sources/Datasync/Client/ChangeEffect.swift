/// What a change actually modified at its path, found by comparing only the written parts.
struct ChangeEffect {
  /// The node the change wrote at.
  let path: DatasyncPath
  /// The modified direct children of `path`; nil when the whole node changed (also when it
  /// changed kind, for example from a string to an object).
  let children: Set<WebcomKey>?
  /// The values at `path` before and after the change (null where absent), when the change set
  /// the node whole and found them while doing so; they differ. A view of the node or of the
  /// parent's children then takes them instead of looking the node up in both trees.
  let values: (before: JSONValue, after: JSONValue)?

  /// The effect a footprint allows: everything it may have modified.
  init(footprint: ChangeFootprint) {
    path = footprint.path
    children = footprint.children.map(Set.init)
    values = nil
  }

  init(
    path: DatasyncPath, children: Set<WebcomKey>?,
    values: (before: JSONValue, after: JSONValue)? = nil
  ) {
    self.path = path
    self.children = children
    self.values = values
  }

  /// The effects of a set at `path` that replaced `replaced` (null where absent) with `value`:
  /// none when they are equal, else the whole node, with both values.
  static func effects(
    ofSetAt path: DatasyncPath, replacing replaced: JSONValue, with value: JSONValue
  ) -> ChangeEffects {
    let written = value.isNull ? JSONValue.null : value
    return replaced == written
      ? .empty : .one(ChangeEffect(path: path, children: nil, values: (replaced, written)))
  }

  /// The key and values of the child of `parent` that the effect set, when it set one child of
  /// `parent` whole with known values.
  func childValues(under parent: DatasyncPath) -> ViewDiff.KnownChild? {
    guard let values, children == nil, path.depth == parent.depth + 1,
      parent.isAncestor(of: path)
    else { return nil }
    return ViewDiff.KnownChild(key: path.key, before: values.before, after: values.after)
  }

  /// The effects of `footprints` between two trees; footprints that changed nothing are dropped.
  ///
  /// Costs the size of the written values, never the size of the untouched data.
  static func effects(
    of footprints: [ChangeFootprint], from old: JSONValue, to new: JSONValue
  ) -> [ChangeEffect] {
    footprints.compactMap { footprint in
      let before = old.value(at: footprint.path.keys)
      let after = new.value(at: footprint.path.keys)
      if let keys = footprint.children, let oldChildren = before.children,
        let newChildren = after.children
      {
        let changed = Set(keys.filter { oldChildren[$0] != newChildren[$0] })
        return changed.isEmpty ? nil : ChangeEffect(path: footprint.path, children: changed)
      }
      return before == after ? nil : ChangeEffect(path: footprint.path, children: nil)
    }
  }
}
