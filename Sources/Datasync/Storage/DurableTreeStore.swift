import Foundation

/// A database's tree kept durably in an SQLite file: the engine loads it when it opens the
/// database and commits every write to it before acknowledging the write.
///
/// **Layout.** One table holds the leaves (strings, integers, floating numbers, booleans), one row
/// per leaf: its path encoded so that byte order is key order and a subtree is a contiguous range
/// (see ``StoredPath``), a kind tag and the value. Objects have no row: an object exists while a
/// leaf below it does, so deleting the last leaf of an object removes the object and every
/// ancestor left empty, as the value model requires.
///
/// **Costs.** A change that writes k leaves at depth d costs O((k + d) log n) plus O(log n) per
/// leaf it replaces, for n stored leaves: the old subtree goes with one range delete, the new
/// leaves are inserted one by one, values stored at ancestors (replaced by the new object) are
/// deleted by path. ``load()`` reads the leaves in key order and builds each object at once from
/// its sorted children: O(n) plus the scan.
///
/// **Durability.** The file is in write-ahead-log mode (WAL); each ``commit(_:)`` is one
/// transaction, and returns once it is committed. See ``Durability`` for what survives a crash.
/// The connection holds the file's lock exclusively while it is open, so a second store (in this
/// or another process) on the same file fails to open instead of interleaving writes.
///
/// **Threads.** A store is thread-safe: its own lock serialises every call (it is meant to be
/// called under the engine's lock, so the lock is never contended there).
///
/// ```swift
/// let store = try DurableTreeStore(path: "app.sqlite")
/// var tree = try store.load()
/// try store.commit([(path, value)])  // after the engine applied the same change to `tree`
/// store.close()
/// ```
final class DurableTreeStore: @unchecked Sendable {
  /// What an acknowledged write survives.
  enum Durability: Sendable {
    /// `synchronous=NORMAL`: a committed write is in the log, written to the operating system
    /// before ``commit(_:)`` returns, so it survives a crash or a `kill -9` of the process. It is
    /// flushed to the disk only at checkpoints: the last writes before a power loss or an
    /// operating-system crash may be lost (the file stays consistent).
    case processCrash
    /// `synchronous=FULL`: the log is also flushed to the disk at every commit, so a committed
    /// write survives a power loss too, at the cost of one flush per write.
    case powerLoss
  }

  /// The kind tags of stored leaves.
  private enum LeafKind: Int64 {
    case string = 0
    case integer = 1
    case double = 2
    case bool = 3
  }

  /// The open connection and its prepared statements, reused by every commit.
  private struct Statements {
    let connection: SQLiteConnection
    let begin: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let insertLeaf: SQLiteStatement
    let deleteLeaf: SQLiteStatement
    let deleteRange: SQLiteStatement
    let deleteAll: SQLiteStatement
  }

  /// The `application_id` of a Datasync database file (the ASCII bytes `DSYN`), which tells it
  /// from other SQLite databases.
  static let applicationIdentifier: Int64 = 0x4453_594E
  /// The version of the file layout, kept in the file's `user_version`.
  static let formatVersion: Int64 = 1

  /// The path of the database file.
  let path: String
  /// What an acknowledged write survives.
  let durability: Durability

  /// Protects `statements` (the connection, `nil` once closed) and `injectedFailure`.
  private let lock = NSLock()
  private var statements: Statements?
  private var injectedFailure: (changeIndex: Int, error: WebcomError)?

  /// Opens the database file at `path`, creating an empty one when there is no file (or an empty
  /// file).
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - durability: What an acknowledged write survives.
  ///   - library: SQLite's runtime library (the system's by default).
  /// - Throws: ``WebcomError`` with code `storageFailed` naming the library when it cannot be
  ///   loaded, or the file and the reason when it cannot be opened, is not a Datasync database
  ///   (another SQLite database, or not a database at all), has a newer format, or is open in
  ///   another store.
  init(
    path: String, durability: Durability = .processCrash,
    library: Result<SQLiteLibrary, WebcomError> = SQLiteLibrary.system
  ) throws(WebcomError) {
    self.path = path
    self.durability = durability
    let connection = try SQLiteConnection(path: path, library: library.get())
    do throws(WebcomError) {
      try DurableTreeStore.configure(connection, durability: durability)
      try DurableTreeStore.checkOrCreateLayout(of: connection)
    } catch {
      throw DurableTreeStore.explainingOpenFailure(error, of: connection)
    }
    statements = Statements(
      connection: connection,
      begin: try connection.prepare("BEGIN IMMEDIATE"),
      commit: try connection.prepare("COMMIT"),
      rollback: try connection.prepare("ROLLBACK"),
      insertLeaf: try connection.prepare(
        "INSERT INTO leaves (path, kind, value) VALUES (?1, ?2, ?3)"),
      deleteLeaf: try connection.prepare("DELETE FROM leaves WHERE path = ?1"),
      deleteRange: try connection.prepare("DELETE FROM leaves WHERE path >= ?1 AND path < ?2"),
      deleteAll: try connection.prepare("DELETE FROM leaves"))
  }

  deinit {
    close()
  }

  /// Reads the whole stored tree.
  ///
  /// - Returns: The tree (null when nothing is stored).
  /// - Throws: ``WebcomError`` with code `storageFailed` when the store is closed, the file
  ///   cannot be read or holds rows that cannot come from a stored tree (naming the row's path
  ///   and the reason).
  func load() throws(WebcomError) -> JSONValue {
    lock.lock()
    defer { lock.unlock() }
    guard let statements else { throw closedError }
    let connection = statements.connection
    let select = try connection.prepare("SELECT path, kind, value FROM leaves ORDER BY path")
    var builder = StoredTreeBuilder()
    var row = 0
    while try select.step() {
      row += 1
      let path = select.blob(at: 0)
      guard select.type(at: 0) == SQLiteConstants.blobType else {
        throw corruption(row: row, path: path, "its path is not a blob")
      }
      let value = try leafValue(of: select, row: row, path: path)
      do throws(StoredTreeBuilder.Corruption) {
        try builder.add(value, at: path)
      } catch {
        throw corruption(row: row, path: path, error.reason)
      }
    }
    do throws(StoredTreeBuilder.Corruption) {
      return try builder.finish()
    } catch {
      throw corruption(row: row, path: UnsafeRawBufferPointer(start: nil, count: 0), error.reason)
    }
  }

  /// The value of the leaf on the current row of `select`.
  private func leafValue(of select: SQLiteStatement, row: Int, path: UnsafeRawBufferPointer)
    throws(WebcomError) -> JSONValue
  {
    let kindNumber = select.int64(at: 1)
    let type = select.type(at: 2)
    switch LeafKind(rawValue: kindNumber) {
    case .string where type == SQLiteConstants.textType:
      guard let string = select.text(at: 2) else {
        throw corruption(row: row, path: path, "its string is not valid UTF-8")
      }
      return .string(string)
    case .integer where type == SQLiteConstants.integerType:
      return .int(select.int64(at: 2))
    case .double where type == SQLiteConstants.floatType:
      let number = select.double(at: 2)
      guard number.isFinite else {
        throw corruption(row: row, path: path, "its number is \(number)")
      }
      return .double(number)
    case .bool where type == SQLiteConstants.integerType:
      let number = select.int64(at: 2)
      guard number == 0 || number == 1 else {
        throw corruption(row: row, path: path, "its boolean is \(number)")
      }
      return .bool(number == 1)
    case nil:
      throw corruption(row: row, path: path, "its kind \(kindNumber) is unknown")
    default:
      throw corruption(
        row: row, path: path,
        "its value of SQLite type \(type) does not match its kind \(kindNumber)"
      )
    }
  }

  private func corruption(row: Int, path: UnsafeRawBufferPointer, _ reason: String) -> WebcomError {
    let place =
      path.isEmpty ? "row \(row)" : "the leaf at \(StoredPath.description(of: path)) (row \(row))"
    return WebcomError(
      .storageFailed,
      "the database file \(WebcomKey.quoted(self.path)) is corrupt: \(place): \(reason)")
  }

  /// Commits changes in one transaction: all of them or, when one fails, none.
  ///
  /// Each change replaces the subtree at its path by its value, in order, as
  /// `JSONValue.setting(_:at:)` does: a null value deletes the subtree (objects left empty
  /// vanish); a value below a stored leaf replaces that leaf by an object.
  ///
  /// - Parameter changes: The paths and their new values; an empty list commits nothing.
  /// - Throws: ``WebcomError`` with code `invalidKey` for a key that cannot be stored,
  ///   `invalidValue` for a NaN or an infinity (naming its path), `storageFailed` when the store
  ///   is closed or SQLite fails (naming the file and the reason). Nothing is applied then.
  func commit(_ changes: [(path: DatasyncPath, value: JSONValue)]) throws(WebcomError) {
    lock.lock()
    defer { lock.unlock() }
    guard let statements else { throw closedError }
    guard !changes.isEmpty else { return }
    try statements.begin.run()
    do throws(WebcomError) {
      var pathBytes: [UInt8] = []
      for (index, change) in changes.enumerated() {
        if let failure = injectedFailure, failure.changeIndex == index {
          injectedFailure = nil
          throw failure.error
        }
        try apply(change.value, at: change.path, with: statements, pathBytes: &pathBytes)
      }
      try statements.commit.run()
    } catch {
      // A failed COMMIT may leave the transaction open, or SQLite may have rolled it back
      // already: either way none of it is kept.
      try? statements.rollback.run()
      throw error
    }
  }

  /// Applies one change inside the open transaction.
  private func apply(
    _ value: JSONValue, at path: DatasyncPath, with statements: Statements,
    pathBytes: inout [UInt8]
  ) throws(WebcomError) {
    pathBytes.removeAll(keepingCapacity: true)
    if path.isRoot {
      try statements.deleteAll.run()
      try insertLeaves(of: value, with: statements, pathBytes: &pathBytes)
      return
    }
    var ancestorEnds: [Int] = []
    ancestorEnds.reserveCapacity(path.depth)
    for key in path.keys {
      ancestorEnds.append(pathBytes.count)
      try StoredPath.append(key, to: &pathBytes)
    }
    if !value.isNull {
      for end in ancestorEnds {
        try statements.deleteLeaf.bind(blob: pathBytes[..<end], at: 1)
        try statements.deleteLeaf.run()
      }
    }
    let subtreeEnd = StoredPath.subtreeEnd(of: pathBytes)
    try statements.deleteRange.bind(blob: pathBytes[...], at: 1)
    try statements.deleteRange.bind(blob: subtreeEnd[...], at: 2)
    try statements.deleteRange.run()
    try insertLeaves(of: value, with: statements, pathBytes: &pathBytes)
  }

  /// Inserts a row for every leaf of `value`, stored below the path encoded in `pathBytes`.
  private func insertLeaves(
    of value: JSONValue, with statements: Statements, pathBytes: inout [UInt8]
  ) throws(WebcomError) {
    let insert = statements.insertLeaf
    switch value {
    case .null:
      return
    case .object(let object):
      for (key, child) in object {
        let end = pathBytes.count
        try StoredPath.append(key, to: &pathBytes)
        try insertLeaves(of: child, with: statements, pathBytes: &pathBytes)
        pathBytes.removeSubrange(end...)
      }
      return
    case .string(let string):
      try insert.bind(LeafKind.string.rawValue, at: 2)
      try insert.bind(text: string, at: 3)
    case .int(let number):
      try insert.bind(LeafKind.integer.rawValue, at: 2)
      try insert.bind(number, at: 3)
    case .double(let number):
      guard number.isFinite else {
        let path = pathBytes.withUnsafeBytes { StoredPath.description(of: $0) }
        throw WebcomError(
          .invalidValue, "the number at \(path) is \(number): NaN and infinities cannot be stored")
      }
      try insert.bind(LeafKind.double.rawValue, at: 2)
      try insert.bind(number, at: 3)
    case .bool(let flag):
      try insert.bind(LeafKind.bool.rawValue, at: 2)
      try insert.bind(Int64(flag ? 1 : 0), at: 3)
    }
    try insert.bind(blob: pathBytes[...], at: 1)
    try insert.run()
  }

  /// Closes the file (the log is checkpointed into it and removed). Later calls fail with
  /// `storageFailed`; closing again does nothing.
  func close() {
    lock.lock()
    let closing = statements
    statements = nil
    lock.unlock()
    withExtendedLifetime(closing) {}
  }

  /// Makes the next commit fail with `error` just before applying its change at `changeIndex`,
  /// after the earlier changes were applied inside its transaction (a test hook standing for a
  /// failure in the middle of a commit).
  func injectFailure(beforeChange changeIndex: Int, error: WebcomError) {
    lock.lock()
    defer { lock.unlock() }
    injectedFailure = (changeIndex, error)
  }

  /// The value of a pragma, as text (for tests: journal mode, synchronous level).
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  func pragma(_ name: String) throws(WebcomError) -> String {
    lock.lock()
    defer { lock.unlock() }
    guard let statements else { throw closedError }
    return try statements.connection.text("PRAGMA \(name)")
  }

  private var closedError: WebcomError {
    WebcomError(.storageFailed, "the database file \(WebcomKey.quoted(path)) is closed")
  }
}
