import Foundation

/// SQLite's runtime library, loaded when first needed, and the C functions the storage calls.
///
/// The package compiles without SQLite's development files (no header, no system-library target,
/// no package dependency): the library is opened with `dlopen` — on Linux `libsqlite3.so.0`,
/// then `libsqlite3.so`; on Apple platforms `/usr/lib/libsqlite3.dylib` — and each function is
/// looked up with `dlsym` and given its C signature as a `@convention(c)` function type. The
/// signatures below are those of SQLite's documented C interface, with `sqlite3 *` and
/// `sqlite3_stmt *` as `OpaquePointer` and the destructor argument of the bind functions as a raw
/// pointer (a function pointer and a data pointer are passed alike on every platform Swift
/// supports; the storage only passes ``SQLiteConstants/transient``). A loaded library is never
/// unloaded.
struct SQLiteLibrary: Sendable {
  typealias LibraryVersionNumber = @convention(c) () -> Int32
  typealias Open =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafeMutablePointer<OpaquePointer?>?, Int32, UnsafePointer<CChar>?
    ) -> Int32
  typealias Close = @convention(c) (OpaquePointer?) -> Int32
  typealias ErrorMessage = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
  typealias Prepare =
    @convention(c) (
      OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeMutablePointer<OpaquePointer?>?,
      UnsafeMutablePointer<UnsafePointer<CChar>?>?
    ) -> Int32
  typealias StatementCall = @convention(c) (OpaquePointer?) -> Int32
  typealias BindBytes =
    @convention(c) (OpaquePointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32
  typealias BindInt64 = @convention(c) (OpaquePointer?, Int32, Int64) -> Int32
  typealias BindDouble = @convention(c) (OpaquePointer?, Int32, Double) -> Int32
  typealias ColumnInt32 = @convention(c) (OpaquePointer?, Int32) -> Int32
  typealias ColumnPointer = @convention(c) (OpaquePointer?, Int32) -> UnsafeRawPointer?
  typealias ColumnInt64 = @convention(c) (OpaquePointer?, Int32) -> Int64
  typealias ColumnDouble = @convention(c) (OpaquePointer?, Int32) -> Double

  /// The name or path the library was loaded from.
  let name: String

  /// `int sqlite3_libversion_number(void)`
  let libraryVersionNumber: LibraryVersionNumber
  /// `int sqlite3_open_v2(const char *filename, sqlite3 **db, int flags, const char *vfs)`
  let open: Open
  /// `int sqlite3_close_v2(sqlite3 *)`
  let close: Close
  /// `const char *sqlite3_errmsg(sqlite3 *)`
  let errorMessage: ErrorMessage
  /// `int sqlite3_prepare_v2(sqlite3 *, const char *sql, int bytes, sqlite3_stmt **, const char **tail)`
  let prepare: Prepare
  /// `int sqlite3_step(sqlite3_stmt *)`
  let step: StatementCall
  /// `int sqlite3_reset(sqlite3_stmt *)`
  let reset: StatementCall
  /// `int sqlite3_finalize(sqlite3_stmt *)`
  let finalize: StatementCall
  /// `int sqlite3_bind_blob(sqlite3_stmt *, int, const void *, int bytes, void (*)(void *))`
  let bindBlob: BindBytes
  /// `int sqlite3_bind_text(sqlite3_stmt *, int, const char *, int bytes, void (*)(void *))`
  let bindText: BindBytes
  /// `int sqlite3_bind_int64(sqlite3_stmt *, int, sqlite3_int64)`
  let bindInt64: BindInt64
  /// `int sqlite3_bind_double(sqlite3_stmt *, int, double)`
  let bindDouble: BindDouble
  /// `int sqlite3_column_type(sqlite3_stmt *, int column)`
  let columnType: ColumnInt32
  /// `int sqlite3_column_bytes(sqlite3_stmt *, int column)`
  let columnBytes: ColumnInt32
  /// `const void *sqlite3_column_blob(sqlite3_stmt *, int column)`
  let columnBlob: ColumnPointer
  /// `const unsigned char *sqlite3_column_text(sqlite3_stmt *, int column)`
  let columnText: ColumnPointer
  /// `sqlite3_int64 sqlite3_column_int64(sqlite3_stmt *, int column)`
  let columnInt64: ColumnInt64
  /// `double sqlite3_column_double(sqlite3_stmt *, int column)`
  let columnDouble: ColumnDouble

  /// The names tried, in order, to load the system's SQLite.
  static var systemCandidates: [String] {
    #if canImport(Darwin)
      ["/usr/lib/libsqlite3.dylib"]
    #else
      ["libsqlite3.so.0", "libsqlite3.so"]
    #endif
  }

  /// The system's SQLite, loaded once (the outcome of the first attempt is kept).
  static let system = Result<SQLiteLibrary, WebcomError> { () throws(WebcomError) in
    try SQLiteLibrary(candidates: systemCandidates)
  }

  /// Loads the first of `candidates` that `dlopen` opens and binds its functions.
  ///
  /// - Parameter candidates: Library names (searched as the dynamic linker does) or paths.
  /// - Throws: ``WebcomError`` with code `storageFailed` naming every candidate tried and the
  ///   dynamic linker's reason when none loads; naming the library and the function when a
  ///   function is missing or the version is older than 3.8.2.
  init(candidates: [String]) throws(WebcomError) {
    var failures: [String] = []
    for candidate in candidates {
      if let handle = dlopen(candidate, RTLD_NOW | RTLD_LOCAL) {
        do {
          try self.init(handle: handle, name: candidate)
          return
        } catch {
          dlclose(handle)
          throw error
        }
      }
      let reason = dlerror().map { String(cString: $0) } ?? "not found"
      failures.append("\(candidate) (\(reason))")
    }
    throw WebcomError(
      .storageFailed,
      "SQLite's runtime library could not be loaded: tried "
        + failures.joined(separator: ", ")
        + "; durable databases need it at run time (on Debian and Ubuntu: the libsqlite3-0 package)"
    )
  }

  private init(handle: UnsafeMutableRawPointer, name: String) throws(WebcomError) {
    func bind<Function>(_ symbol: String, as type: Function.Type) throws(WebcomError) -> Function {
      guard let address = dlsym(handle, symbol) else {
        throw WebcomError(
          .storageFailed,
          "SQLite's runtime library \(name) lacks the function \(symbol): it is not SQLite, or a "
            + "build without it")
      }
      return unsafeBitCast(address, to: type)
    }
    self.name = name
    libraryVersionNumber = try bind("sqlite3_libversion_number", as: LibraryVersionNumber.self)
    open = try bind("sqlite3_open_v2", as: Open.self)
    close = try bind("sqlite3_close_v2", as: Close.self)
    errorMessage = try bind("sqlite3_errmsg", as: ErrorMessage.self)
    prepare = try bind("sqlite3_prepare_v2", as: Prepare.self)
    step = try bind("sqlite3_step", as: StatementCall.self)
    reset = try bind("sqlite3_reset", as: StatementCall.self)
    finalize = try bind("sqlite3_finalize", as: StatementCall.self)
    bindBlob = try bind("sqlite3_bind_blob", as: BindBytes.self)
    bindText = try bind("sqlite3_bind_text", as: BindBytes.self)
    bindInt64 = try bind("sqlite3_bind_int64", as: BindInt64.self)
    bindDouble = try bind("sqlite3_bind_double", as: BindDouble.self)
    columnType = try bind("sqlite3_column_type", as: ColumnInt32.self)
    columnBytes = try bind("sqlite3_column_bytes", as: ColumnInt32.self)
    columnBlob = try bind("sqlite3_column_blob", as: ColumnPointer.self)
    columnText = try bind("sqlite3_column_text", as: ColumnPointer.self)
    columnInt64 = try bind("sqlite3_column_int64", as: ColumnInt64.self)
    columnDouble = try bind("sqlite3_column_double", as: ColumnDouble.self)
    let version = libraryVersionNumber()
    guard version >= SQLiteConstants.minimumVersionNumber else {
      throw WebcomError(
        .storageFailed,
        "SQLite's runtime library \(name) is version \(SQLiteLibrary.versionString(version)), "
          + "older than the \(SQLiteLibrary.versionString(SQLiteConstants.minimumVersionNumber)) "
          + "that durable databases need")
    }
  }

  /// The version of the loaded library, as `3.40.1`.
  var version: String { SQLiteLibrary.versionString(libraryVersionNumber()) }

  private static func versionString(_ number: Int32) -> String {
    "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)"
  }
}
