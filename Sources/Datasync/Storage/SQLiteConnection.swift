import Foundation

/// An open SQLite database connection, through the functions of an ``SQLiteLibrary``.
///
/// Not thread-safe: it is opened in SQLite's multi-thread mode (no lock of its own), so its owner
/// serialises every use of the connection and of its statements. Errors are ``WebcomError``s with
/// code `storageFailed` that name the database file, what was being done and SQLite's reason.
final class SQLiteConnection {
  let library: SQLiteLibrary
  /// The path of the database file.
  let path: String
  /// The `sqlite3 *` handle, `nil` once closed.
  private(set) var handle: OpaquePointer?
  /// The SQLite result code of the last failure reported by ``failure(_:_:)``.
  private(set) var lastFailureCode: Int32?

  /// Opens (creating it when absent) the database file at `path` for reading and writing.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed` naming the file and SQLite's reason.
  init(path: String, library: SQLiteLibrary) throws(WebcomError) {
    self.library = library
    self.path = path
    var opened: OpaquePointer?
    let flags =
      SQLiteConstants.openReadWrite | SQLiteConstants.openCreate | SQLiteConstants.openNoMutex
    let code = library.open(path, &opened, flags, nil)
    handle = opened
    guard code == SQLiteConstants.ok, opened != nil else {
      let error = failure(code, "opening")
      close()
      throw error
    }
  }

  deinit {
    close()
  }

  /// Closes the connection; its statements, when they are released later, finish the closing.
  /// Closing again does nothing.
  func close() {
    guard let handle else { return }
    _ = library.close(handle)
    self.handle = nil
  }

  /// Compiles one SQL statement.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`, naming the statement.
  func prepare(_ sql: String) throws(WebcomError) -> SQLiteStatement {
    guard let handle else { throw closedError() }
    var statement: OpaquePointer?
    let code = library.prepare(handle, sql, -1, &statement, nil)
    guard code == SQLiteConstants.ok, let statement else {
      throw failure(code, "preparing \"\(sql)\" on")
    }
    return SQLiteStatement(handle: statement, connection: self, sql: sql)
  }

  /// Runs one SQL statement to its end, ignoring the rows it returns.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`, naming the statement.
  func execute(_ sql: String) throws(WebcomError) {
    let statement = try prepare(sql)
    while try statement.step() {}
  }

  /// Runs a statement that returns one row and returns its first column as an integer.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`, naming the statement.
  func integer(_ sql: String) throws(WebcomError) -> Int64 {
    let statement = try prepare(sql)
    guard try statement.step() else {
      throw WebcomError(.storageFailed, "\"\(sql)\" returned no row on \(fileDescription)")
    }
    return statement.int64(at: 0)
  }

  /// Runs a statement that returns one row and returns its first column as text.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`, naming the statement.
  func text(_ sql: String) throws(WebcomError) -> String {
    let statement = try prepare(sql)
    guard try statement.step() else {
      throw WebcomError(.storageFailed, "\"\(sql)\" returned no row on \(fileDescription)")
    }
    return statement.text(at: 0) ?? ""
  }

  /// `the database file "<path>"`, for messages.
  var fileDescription: String { "the database file \(WebcomKey.quoted(path))" }

  /// An error for a failed call: `<doing> the database file "<path>" failed: <reason> (SQLite
  /// code <code>)`.
  func failure(_ code: Int32, _ doing: String) -> WebcomError {
    lastFailureCode = code
    let reason = library.errorMessage(handle).map { String(cString: $0) } ?? "unknown error"
    return WebcomError(
      .storageFailed, "\(doing) \(fileDescription) failed: \(reason) (SQLite code \(code))")
  }

  /// The error of a use after ``close()``.
  func closedError() -> WebcomError {
    WebcomError(.storageFailed, "\(fileDescription) is closed")
  }
}
