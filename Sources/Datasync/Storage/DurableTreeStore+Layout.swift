extension DurableTreeStore {
  /// Exclusive locking (no shared-memory index, no other connection), write-ahead log, and the
  /// synchronous level of the durability.
  static func configure(_ connection: SQLiteConnection, durability: Durability)
    throws(WebcomError)
  {
    _ = try connection.text("PRAGMA locking_mode = EXCLUSIVE")
    let journalMode = try connection.text("PRAGMA journal_mode = WAL")
    guard journalMode.lowercased() == "wal" else {
      throw WebcomError(
        .storageFailed,
        "\(connection.fileDescription) cannot use a write-ahead log (its journal mode stays "
          + "\(WebcomKey.quoted(journalMode))): a durable database needs a file on a local disk")
    }
    switch durability {
    case .processCrash: try connection.execute("PRAGMA synchronous = NORMAL")
    case .powerLoss: try connection.execute("PRAGMA synchronous = FULL")
    }
  }

  /// Creates the layout in an empty file, or checks that the file holds a Datasync database of a
  /// format this version reads.
  static func checkOrCreateLayout(of connection: SQLiteConnection) throws(WebcomError) {
    let application = try connection.integer("PRAGMA application_id")
    let version = try connection.integer("PRAGMA user_version")
    let tables = try connection.integer("SELECT count(*) FROM sqlite_master")
    if application == 0 && version == 0 && tables == 0 {
      try connection.execute("BEGIN IMMEDIATE")
      do throws(WebcomError) {
        try connection.execute(
          "CREATE TABLE leaves (path BLOB NOT NULL PRIMARY KEY, kind INTEGER NOT NULL, value) "
            + "WITHOUT ROWID")
        try connection.execute("PRAGMA application_id = \(applicationIdentifier)")
        try connection.execute("PRAGMA user_version = \(formatVersion)")
        try connection.execute("COMMIT")
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
      return
    }
    guard application == applicationIdentifier else {
      throw WebcomError(
        .storageFailed,
        "\(connection.fileDescription) is an SQLite database of another application "
          + "(application id \(application)), not a Datasync database")
    }
    guard version == formatVersion else {
      throw WebcomError(
        .storageFailed,
        "\(connection.fileDescription) has the format version \(version); this version of "
          + "Datasync reads the format version \(formatVersion)")
    }
  }

  /// Adds what SQLite's terse reasons mean for a database file that fails to open.
  static func explainingOpenFailure(_ error: WebcomError, of connection: SQLiteConnection)
    -> WebcomError
  {
    switch connection.lastFailureCode {
    case SQLiteConstants.notADatabase:
      return WebcomError(
        .storageFailed, "\(connection.fileDescription) is not a Datasync database: \(error.message)"
      )
    case SQLiteConstants.busy:
      return WebcomError(
        .storageFailed,
        "\(connection.fileDescription) is open in another store or process: \(error.message)")
    default:
      return error
    }
  }
}
