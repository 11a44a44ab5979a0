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
