/// Which children of a view's node a change may have modified.
enum ViewRelevance {
  /// The change did not touch the view's node.
  case none
  /// The change may have modified any child (or the node's own value).
  case whole
  /// The change modified exactly these children.
  case children(ChildKeys)
  /// The change modified some children, not named: the view did not ask which (see
  /// ``init(of:at:namesChildren:)``).
  case someChildren

  /// The relevance of `effects` for the node at `path`; the children modified are named only
  /// when `namesChildren` (else the relevance is ``someChildren``, found without making a set).
  init(of effects: some Collection<ChangeEffect>, at path: DatasyncPath, namesChildren: Bool = true)
  {
    var keys = ChildKeys()
    var touchesChildren = false
    for effect in effects {
      if effect.path == path {
        guard let children = effect.children else {
          self = .whole
          return
        }
        if !children.isEmpty { touchesChildren = true }
        if namesChildren { keys.formUnion(children) }
      } else if effect.path.isAncestor(of: path) {
        if effect.children?.contains(path.keys[effect.path.depth]) ?? true {
          self = .whole
          return
        }
      } else if path.isAncestor(of: effect.path) {
        touchesChildren = true
        if namesChildren { keys.insert(effect.path.keys[path.depth]) }
      }
    }
    if !touchesChildren {
      self = .none
    } else {
      self = namesChildren ? .children(keys) : .someChildren
    }
  }
}
