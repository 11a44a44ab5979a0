/// Where a change may have modified the tree: some direct children of a node, or the whole node.
struct ChangeFootprint: Sendable {
  /// The node the change wrote at.
  let path: DatasyncPath
  /// The direct children of `path` the change may have modified; nil for the whole node.
  let children: [WebcomKey]?
}

/// What a change actually modified at its path, found by comparing only the written parts.
struct ChangeEffect {
  /// The node the change wrote at.
  let path: DatasyncPath
  /// The modified direct children of `path`; nil when the whole node changed (also when it
  /// changed kind, for example from a string to an object).
  let children: Set<WebcomKey>?

  /// The effect a footprint allows: everything it may have modified.
  init(footprint: ChangeFootprint) {
    path = footprint.path
    children = footprint.children.map(Set.init)
  }

  init(path: DatasyncPath, children: Set<WebcomKey>?) {
    self.path = path
    self.children = children
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

/// Which children of a view's node a change may have modified.
enum ViewRelevance {
  /// The change did not touch the view's node.
  case none
  /// The change may have modified any child (or the node's own value).
  case whole
  /// The change modified exactly these children.
  case children(Set<WebcomKey>)

  /// The relevance of `effects` for the node at `path`.
  init(of effects: [ChangeEffect], at path: DatasyncPath) {
    var keys: Set<WebcomKey> = []
    for effect in effects {
      if effect.path == path {
        guard let children = effect.children else {
          self = .whole
          return
        }
        keys.formUnion(children)
      } else if effect.path.isAncestor(of: path) {
        if effect.children?.contains(path.keys[effect.path.depth]) ?? true {
          self = .whole
          return
        }
      } else if path.isAncestor(of: effect.path) {
        keys.insert(effect.path.keys[path.depth])
      }
    }
    self = keys.isEmpty ? .none : .children(keys)
  }
}
