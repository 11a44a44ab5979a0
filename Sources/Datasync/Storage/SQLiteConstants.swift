/// The constants of SQLite's C interface that the storage uses.
///
/// The package builds without SQLite's header, so the values are written here; each is the value
/// that SQLite's documented C interface gives for the name beside it (they are part of its stable
/// interface and never change between versions).
enum SQLiteConstants {
  /// `SQLITE_OK`: the call succeeded.
  static let ok: Int32 = 0
  /// `SQLITE_BUSY`: the database file is locked by another connection.
  static let busy: Int32 = 5
  /// `SQLITE_NOTADB`: the file is not a database.
  static let notADatabase: Int32 = 26
  /// `SQLITE_ROW`: `sqlite3_step` has a row ready.
  static let row: Int32 = 100
  /// `SQLITE_DONE`: `sqlite3_step` has finished.
  static let done: Int32 = 101

  /// `SQLITE_OPEN_READWRITE`: open the file for reading and writing.
  static let openReadWrite: Int32 = 0x0000_0002
  /// `SQLITE_OPEN_CREATE`: create the file when it does not exist.
  static let openCreate: Int32 = 0x0000_0004
  /// `SQLITE_OPEN_NOMUTEX`: the connection takes no lock of its own (the multi-thread mode: the
  /// caller serialises every use of the connection and of its statements).
  static let openNoMutex: Int32 = 0x0000_8000

  /// `SQLITE_INTEGER`: the fundamental type of a 64-bit signed integer column value.
  static let integerType: Int32 = 1
  /// `SQLITE_FLOAT`: the fundamental type of a 64-bit floating column value.
  static let floatType: Int32 = 2
  /// `SQLITE_TEXT`: the fundamental type of a text column value.
  static let textType: Int32 = 3
  /// `SQLITE_BLOB`: the fundamental type of a blob column value.
  static let blobType: Int32 = 4

  /// `SQLITE_TRANSIENT`, the destructor argument `(sqlite3_destructor_type)-1`: SQLite copies a
  /// bound text or blob before the bind call returns, so the caller's buffer may go away.
  static var transient: UnsafeRawPointer? { UnsafeRawPointer(bitPattern: -1) }

  /// The oldest SQLite accepted, as `sqlite3_libversion_number` counts (3.8.2, the first with
  /// `WITHOUT ROWID` tables).
  static let minimumVersionNumber: Int32 = 3_008_002
}
