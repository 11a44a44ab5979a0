/// An entry point into the durable store for the package's benchmarks (`datasync-bench`), which
/// cannot see internal declarations: a store holding leaves `/g<group>/k<leaf>` with short
/// string values.
package final class StorageProbe: Sendable {
  private let store: DurableTreeStore

  /// Opens (or creates) the database file at `path`.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - flushesEveryCommit: Whether commits survive power loss (`synchronous=FULL`) rather than
  ///     process crashes only (`synchronous=NORMAL`).
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  package init(path: String, flushesEveryCommit: Bool = false) throws(WebcomError) {
    store = try DurableTreeStore(
      path: path, durability: flushesEveryCommit ? .powerLoss : .processCrash)
  }

  /// Writes `groups` objects of `leavesPerGroup` leaves each, one commit per object.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  package func fill(groups: Int, leavesPerGroup: Int) throws(WebcomError) {
    for group in 0..<groups {
      let pairs = (0..<leavesPerGroup).map { leaf in
        (key: StorageProbe.leafKey(leaf), value: JSONValue.string("value \(group)-\(leaf)"))
      }
      let object = JSONValue.object(JSONObject(pairs.sorted { $0.key < $1.key }))
      try store.commit([(DatasyncPath(validatedKeys: [StorageProbe.groupKey(group)]), object)])
    }
  }

  /// Reads the whole tree, as opening a database does.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  package func load() throws(WebcomError) -> LoadedTree {
    LoadedTree(tree: try store.load())
  }

  /// A tree read by ``load()``, kept so that its release is not part of a timed load.
  package struct LoadedTree: Sendable {
    let tree: JSONValue

    /// The number of groups.
    package var groupCount: Int { tree.children?.count ?? 0 }
  }

  /// Commits one write of the leaf `/g<group>/k<leaf>`.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  package func setLeaf(group: Int, leaf: Int, to text: String) throws(WebcomError) {
    let path = DatasyncPath(
      validatedKeys: [StorageProbe.groupKey(group), StorageProbe.leafKey(leaf)])
    try store.commit([(path, .string(text))])
  }

  /// Closes the file (checkpointing and removing its log).
  package func close() {
    store.close()
  }

  private static func groupKey(_ group: Int) -> WebcomKey {
    WebcomKey("g\(group)")
  }

  private static func leafKey(_ leaf: Int) -> WebcomKey {
    WebcomKey("k\(leaf)")
  }
}
