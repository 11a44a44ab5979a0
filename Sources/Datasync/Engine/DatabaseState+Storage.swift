/// Durability: a write is committed to the database's file before it is applied and
/// acknowledged.
extension DatabaseState {
  /// Commits the locations a write changes, with their values in the tree after the write, to
  /// the store (nothing in memory). O(k log n) for k leaves written among n.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed` naming the file and the reason; the
  ///   write must then not be applied.
  func persist(_ write: WriteOperation, in tree: JSONValue) throws(WebcomError) {
    guard let store else { return }
    try store.commit(write.writtenPaths.map { (path: $0, value: tree.value(at: $0.keys)) })
  }
}
