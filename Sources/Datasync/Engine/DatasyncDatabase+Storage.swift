/// Durable databases, kept in a file.
extension DatasyncDatabase {
  /// Opens the database file at `path`, or creates it: the same database as
  /// `init(rules:tokens:)`, whose data survives the process.
  ///
  /// The whole tree is loaded when the file opens (O(n) in the number of stored values). Every
  /// write — a client's `set`, `merge`, `push`, `increment`, transaction or `copy(to:)`, and the
  /// disconnection operations the database runs — is committed to the file before it is applied
  /// and acknowledged; a write whose commit fails is refused with `storageFailed` and nothing of
  /// it is applied. A write touching k leaves among n stored costs O(k log n) in the file.
  ///
  /// The file is SQLite's, in write-ahead-log mode, committed with `synchronous=NORMAL`: an
  /// acknowledged write survives a crash or a `kill -9` of the process; the last writes before a
  /// power loss or an operating-system crash may be lost (the file stays consistent). SQLite's
  /// runtime library is loaded when the first file opens (`libsqlite3.so.0` on Linux, the
  /// system's on Apple platforms); no development headers are needed. A file is open in one
  /// database at a time, in one process.
  ///
  /// ```swift
  /// let database = try DatasyncDatabase(path: "app.sqlite", rules: .authenticated)
  /// defer { database.close() }
  /// ```
  ///
  /// - Parameters:
  ///   - path: The database file; created with its layout when it does not exist.
  ///   - rules: The security rules (see `init(rules:tokens:)`).
  ///   - tokens: The identity each token stands for.
  /// - Throws: ``WebcomError`` with code `storageFailed` naming the file (or the library) and
  ///   the reason: SQLite cannot be loaded, the file cannot be opened or created, is not a
  ///   Datasync database, has a newer format, is open elsewhere, or holds corrupt data.
  public convenience init(
    path: String, rules: DatasyncRules = .open, tokens: [String: DatasyncAuthentication] = [:]
  ) throws(WebcomError) {
    let store = try DurableTreeStore(path: path)
    let root: JSONValue
    do throws(WebcomError) {
      root = try store.load()
    } catch {
      store.close()
      throw error
    }
    self.init(state: DatabaseState(rules: rules, tokens: tokens, root: root, store: store))
  }

  /// Closes the database's file (its log is checkpointed into it): later writes are refused with
  /// `storageFailed`, reads still answer from memory. Closing again, or closing a database in
  /// memory, does nothing.
  public func close() {
    store?.close()
  }
}
