import Foundation

/// A compiled SQL statement of an ``SQLiteConnection``, reusable: bind its parameters, step it,
/// read the columns of its current row, reset it.
///
/// Not thread-safe, like its connection. Parameters are numbered from 1, columns from 0, as in
/// SQLite. Texts and blobs are copied by SQLite when bound. Released, it is finalised.
final class SQLiteStatement {
  private let handle: OpaquePointer
  private let connection: SQLiteConnection
  private let library: SQLiteLibrary
  /// The SQL text, for messages.
  let sql: String

  init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
    self.handle = handle
    self.connection = connection
    self.library = connection.library
    self.sql = sql
  }

  deinit {
    _ = library.finalize(handle)
  }

  /// Binds a blob (an empty slice binds an empty blob, not null).
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  func bind(blob bytes: ArraySlice<UInt8>, at index: Int32) throws(WebcomError) {
    try checkLength(bytes.count)
    let code = bytes.withUnsafeBytes { bindBytes($0, at: index, with: library.bindBlob) }
    try check(code, "binding a parameter of \"\(sql)\" on")
  }

  /// Binds a text (an empty string binds an empty text, not null).
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  func bind(text: String, at index: Int32) throws(WebcomError) {
    try checkLength(text.utf8.count)
    var text = text
    let code = text.withUTF8 {
      bindBytes(UnsafeRawBufferPointer($0), at: index, with: library.bindText)
    }
    try check(code, "binding a parameter of \"\(sql)\" on")
  }

  /// Calls a bind function with bytes that SQLite copies; returns its result code.
  private func bindBytes(
    _ bytes: UnsafeRawBufferPointer, at index: Int32, with function: SQLiteLibrary.BindBytes
  ) -> Int32 {
    // A null pointer would bind SQL null: an empty value points at a valid empty buffer instead.
    return withUnsafeBytes(of: UInt8(0)) { empty in
      function(
        handle, index, bytes.baseAddress ?? empty.baseAddress, Int32(bytes.count),
        SQLiteConstants.transient)
    }
  }

  /// Binds a 64-bit integer.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  func bind(_ value: Int64, at index: Int32) throws(WebcomError) {
    try check(library.bindInt64(handle, index, value), "binding a parameter of \"\(sql)\" on")
  }

  /// Binds a 64-bit floating number.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`.
  func bind(_ value: Double, at index: Int32) throws(WebcomError) {
    try check(library.bindDouble(handle, index, value), "binding a parameter of \"\(sql)\" on")
  }

  /// Runs the statement to its next row: `true` when a row is ready, `false` when the statement
  /// has finished (it is then reset, ready to run again with new bindings).
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`, naming the statement and SQLite's
  ///   reason; the statement is reset.
  func step() throws(WebcomError) -> Bool {
    let code = library.step(handle)
    if code == SQLiteConstants.row { return true }
    if code == SQLiteConstants.done {
      reset()
      return false
    }
    let error = connection.failure(code, "running \"\(sql)\" on")
    reset()
    throw error
  }

  /// Makes the statement ready to run again (bindings are kept until replaced).
  func reset() {
    _ = library.reset(handle)
  }

  /// Runs a statement that returns no row.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed`, naming the statement.
  func run() throws(WebcomError) {
    while try step() {}
  }

  /// The fundamental type of a column of the current row (``SQLiteConstants/integerType`` …).
  func type(at column: Int32) -> Int32 {
    library.columnType(handle, column)
  }

  /// The bytes of a blob column of the current row, valid until the next step or reset.
  func blob(at column: Int32) -> UnsafeRawBufferPointer {
    let start = library.columnBlob(handle, column)
    let count = Int(library.columnBytes(handle, column))
    return UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: start == nil ? 0 : count)
  }

  /// The UTF-8 bytes of a text column of the current row, valid until the next step or reset.
  func textBytes(at column: Int32) -> UnsafeRawBufferPointer {
    let start = library.columnText(handle, column)
    let count = Int(library.columnBytes(handle, column))
    return UnsafeRawBufferPointer(start: count > 0 ? start : nil, count: start == nil ? 0 : count)
  }

  /// A text column of the current row (empty for null), `nil` when it is not valid UTF-8.
  func text(at column: Int32) -> String? {
    let bytes = textBytes(at: column)
    guard let start = bytes.baseAddress else { return "" }
    // SQLite ends every text it returns with a zero byte; without another zero byte inside, the
    // text is a C string, which the standard library validates fastest.
    if memchr(start, 0, bytes.count) == nil {
      return String(validatingCString: start.assumingMemoryBound(to: CChar.self))
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// An integer column of the current row.
  func int64(at column: Int32) -> Int64 {
    library.columnInt64(handle, column)
  }

  /// A floating column of the current row.
  func double(at column: Int32) -> Double {
    library.columnDouble(handle, column)
  }

  /// Refuses a text or blob longer than SQLite's `int` length parameter can say.
  private func checkLength(_ count: Int) throws(WebcomError) {
    guard count > Int32.max else { return }
    throw WebcomError(
      .storageFailed,
      "a value of \(count) bytes is too large for \(connection.fileDescription) (at most "
        + "\(Int32.max) bytes)")
  }

  private func check(_ code: Int32, _ doing: String) throws(WebcomError) {
    guard code == SQLiteConstants.ok else { throw connection.failure(code, doing) }
  }
}
