/// Where a change may have modified the tree: some direct children of a node, or the whole node.
struct ChangeFootprint: Sendable {
  /// The node the change wrote at.
  let path: DatasyncPath
  /// The direct children of `path` the change may have modified; nil for the whole node.
  let children: [WebcomKey]?
}
