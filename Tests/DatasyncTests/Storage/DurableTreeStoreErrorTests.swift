import Foundation
import Testing

@testable import Datasync

/// Files and libraries a store cannot use: a clear error naming the culprit, and nothing changed.
@Suite struct DurableTreeStoreErrorTests {
  @Test func aMissingLibraryIsNamedWithEveryNameTried() throws {
    let names = ["libdatasync-no-such-sqlite.so.0", "/nowhere/libsqlite3.so"]
    let error = #expect(throws: WebcomError.self) { try SQLiteLibrary(candidates: names) }
    #expect(error?.code == .storageFailed)
    for name in names { #expect(error?.message.contains(name) == true) }
    #expect(error?.message.contains("libsqlite3-0") == true)

    let directory = try TemporaryDirectory()
    let file = directory.path("never.sqlite")
    let missing = Result<SQLiteLibrary, WebcomError> { () throws(WebcomError) in
      try SQLiteLibrary(candidates: names)
    }
    let storeError = #expect(throws: WebcomError.self) {
      try DurableTreeStore(path: file, library: missing)
    }
    #expect(storeError?.message.contains(names[0]) == true)
    #expect(!FileManager.default.fileExists(atPath: file))
  }

  @Test func aLibraryThatIsNotSQLiteIsNamedWithTheMissingFunction() {
    #if canImport(Darwin)
      let other = "/usr/lib/libSystem.B.dylib"
    #else
      let other = "libc.so.6"
    #endif
    let error = #expect(throws: WebcomError.self) { try SQLiteLibrary(candidates: [other]) }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains(other) == true)
    #expect(error?.message.contains("sqlite3_libversion_number") == true)
  }

  @Test func theSystemLibraryLoads() throws {
    let library = try SQLiteLibrary.system.get()
    #expect(SQLiteLibrary.systemCandidates.contains(library.name))
    #expect(library.libraryVersionNumber() >= SQLiteConstants.minimumVersionNumber)
    #expect(library.version.hasPrefix("3."))
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItIs() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("notes.txt")
    let content = Data(String(repeating: "These are notes, not a database.\n", count: 200).utf8)
    try content.write(to: URL(fileURLWithPath: file))
    let error = #expect(throws: WebcomError.self) { try DurableTreeStore(path: file) }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains("\"\(file)\" is not a Datasync database") == true)
    #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == content)
  }

  @Test func anotherApplicationsDatabaseIsRefused() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("other.sqlite")
    do {
      let connection = try SQLiteConnection(path: file, library: SQLiteLibrary.system.get())
      try connection.execute("CREATE TABLE contacts (name TEXT)")
      try connection.execute("INSERT INTO contacts VALUES ('Ada')")
    }
    let error = #expect(throws: WebcomError.self) { try DurableTreeStore(path: file) }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains("another application") == true)
    #expect(error?.message.contains(file) == true)
    let connection = try SQLiteConnection(path: file, library: SQLiteLibrary.system.get())
    #expect(try connection.text("SELECT name FROM contacts") == "Ada")
  }

  @Test func aNewerFormatIsRefused() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("newer.sqlite")
    try DurableTreeStore(path: file).commit([(.root, .int(1))])
    do {
      let connection = try SQLiteConnection(path: file, library: SQLiteLibrary.system.get())
      try connection.execute("PRAGMA user_version = 2")
    }
    let error = #expect(throws: WebcomError.self) { try DurableTreeStore(path: file) }
    #expect(error?.message.contains("format version 2") == true)
  }

  @Test func aFileThatCannotBeCreatedIsNamed() {
    let file = "/nonexistent-datasync-directory/sub/db.sqlite"
    let error = #expect(throws: WebcomError.self) { try DurableTreeStore(path: file) }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains(file) == true)
  }

  /// Rows that no commit writes, added behind the store's back.
  @Test(arguments: [
    ("X'6100', 9, 1", "kind 9 is unknown"),
    ("X'6100', 1, 'text'", "does not match its kind 1"),
    ("X'6100', 2, 1.5e999", "its number is inf"),
    ("X'6100', 3, 2", "its boolean is 2"),
    ("X'6100', 0, CAST(X'FF' AS TEXT)", "not valid UTF-8"),
    ("X'0500', 1, 1", "not a valid encoding"),
    ("'text path', 1, 1", "its path is not a blob"),
    ("X'6D00', 1, 1", "\"m\" and \"m\" are stored out of order or twice"),
    ("X'', 1, 1", "stored at the root and below it"),
  ])
  func corruptRowsAreReportedWithTheirPath(row: String, reason: String) throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("corrupt.sqlite")
    let tree = try jsonValue(#"{"m": {"n": 1}, "z": 2}"#)
    try DurableTreeStore(path: file).commit([(.root, tree)])
    do {
      let connection = try SQLiteConnection(path: file, library: SQLiteLibrary.system.get())
      try connection.execute("INSERT INTO leaves (path, kind, value) VALUES (\(row))")
    }
    let store = try DurableTreeStore(path: file)
    let error = #expect(throws: WebcomError.self) { try store.load() }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains("\"\(file)\" is corrupt") == true)
    #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
  }

  @Test func aDamagedFileIsReportedAsSuch() throws {
    let directory = try TemporaryDirectory()
    let file = directory.path("damaged.sqlite")
    var tree = JSONValue.null
    for index in 0..<2_000 {
      tree = tree.setting(.string("value \(index)"), at: ["items", WebcomKey("k\(index)")])
    }
    try DurableTreeStore(path: file).commit([(.root, tree)])
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
    // Pages 2 to 5 of the file (4 KiB pages), where the table's first pages are.
    try handle.seek(toOffset: 4_096)
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 4 * 4_096))
    try handle.close()
    let error = #expect(throws: WebcomError.self) {
      let store = try DurableTreeStore(path: file)
      _ = try store.load()
    }
    #expect(error?.code == .storageFailed)
    #expect(error?.message.contains(file) == true)
    #expect(error?.message.contains("malformed") == true, "\(error?.message ?? "")")
  }
}
