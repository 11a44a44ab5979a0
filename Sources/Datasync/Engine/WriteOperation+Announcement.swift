/// How the back end tells listening clients about a write.
extension WriteOperation {
  /// The messages that tell a client listening at `listens` about this write: the write itself
  /// to a listen at or above its node (`sharing`: with the new value of the outermost such
  /// listen); below it, to the outermost listens it touches, the part of the write inside each
  /// (the new value of a listen that a set or a merge entry replaces, the entries of a merge
  /// inside a listen re-rooted there). `tree` is the tree after the write; `replaced` goes with
  /// a shared write (see ``BackEndMessage/changedSharing(_:listen:value:replaced:)``).
  func messages(
    to listens: some Sequence<DatasyncPath>, in tree: JSONValue, replaced: JSONValue? = nil,
    sharing: Bool = false
  ) -> [BackEndMessage] {
    var below: [DatasyncPath] = []
    var covering: DatasyncPath?
    for listen in listens {
      if listen.isAncestorOrSelf(of: path) {
        guard sharing else { return [.changed(self)] }
        if covering.map({ listen.depth < $0.depth }) ?? true { covering = listen }
      } else if path.isAncestor(of: listen) && touches(listen) {
        below.append(listen)
      }
    }
    if let covering {
      return [
        .changedSharing(
          self, listen: covering, value: tree.value(at: covering.keys), replaced: replaced)
      ]
    }
    return below.filter { listen in !below.contains { $0.isAncestor(of: listen) } }
      .map { .changed(restricted(to: $0, in: tree)) }
  }

  /// Whether the write may change the value at `descendant`, a path below the write's path.
  private func touches(_ descendant: DatasyncPath) -> Bool {
    guard case .merge(let path, let entries) = self else { return true }
    let relative = descendant.relative(to: path)
    return entries.contains { $0.keys.starts(with: relative) || relative.starts(with: $0.keys) }
  }

  /// The part of the write inside `descendant`, a path below the write's path that it touches,
  /// as an operation at `descendant` (`tree` is the tree after the write).
  private func restricted(to descendant: DatasyncPath, in tree: JSONValue) -> WriteOperation {
    guard case .merge(let path, let entries) = self else {
      return .set(descendant, tree.value(at: descendant.keys))
    }
    let relative = descendant.relative(to: path)
    var inside: [MergeEntry] = []
    for entry in entries {
      if relative.starts(with: entry.keys) {
        // The entry replaces the listened node or one of its ancestors.
        return .set(descendant, tree.value(at: descendant.keys))
      }
      if entry.keys.starts(with: relative) {
        inside.append(MergeEntry(keys: Array(entry.keys[relative.count...]), value: entry.value))
      }
    }
    return .merge(descendant, inside)
  }
}
