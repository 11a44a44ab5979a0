import Datasync
import Foundation

/// The databases a server serves, one per namespace, opened on first use and kept open until
/// the server stops.
///
/// With a data path, each database is a file: the default namespace's is the data path itself,
/// a named namespace's is the data path with `.<name>` inserted before its extension
/// (`./datasync.sqlite` → `./datasync.chat.sqlite`; without an extension, appended). Without a
/// data path, databases are in memory. Every database gets the same rules and tokens.
final class NamespaceRegistry: @unchecked Sendable {
  /// Where databases live.
  enum Storage: Sendable {
    case memory
    case files(dataPath: String)
  }

  private let storage: Storage
  private let rules: DatasyncRules
  private let tokens: [String: DatasyncAuthentication]
  private let maximumCount: Int

  /// Protects `databases` and `isClosed`. Held while a database opens (rare: once per
  /// namespace), so that two requests never open the same file.
  private let lock = NSLock()
  private var databases: [Namespace?: DatasyncDatabase] = [:]
  private var isClosed = false

  init(
    storage: Storage, rules: DatasyncRules, tokens: [String: DatasyncAuthentication],
    maximumCount: Int
  ) {
    self.storage = storage
    self.rules = rules
    self.tokens = tokens
    self.maximumCount = maximumCount
  }

  /// The database of a namespace (nil: the default one), opened or created on first use.
  ///
  /// - Throws: ``WebcomError`` with code `storageFailed` when its file cannot be opened,
  ///   `invalidArgument` when the server already serves its maximum number of namespaces,
  ///   `disconnected` once the registry is closed.
  func database(for namespace: Namespace?) throws(WebcomError) -> DatasyncDatabase {
    lock.lock()
    defer { lock.unlock() }
    guard !isClosed else { throw WebcomError(.disconnected, "the server is stopping") }
    if let database = databases[namespace] { return database }
    guard databases.count < maximumCount else {
      throw WebcomError(
        .invalidArgument,
        "the namespace \(namespace?.name ?? "(default)") cannot be opened: the server already "
          + "serves its maximum of \(maximumCount) namespaces")
    }
    let database = try open(namespace)
    databases[namespace] = database
    return database
  }

  /// The file of a namespace's database, nil in memory.
  func filePath(of namespace: Namespace?) -> String? {
    guard case .files(let dataPath) = storage else { return nil }
    guard let namespace else { return dataPath }
    let url = URL(fileURLWithPath: dataPath)
    let name = url.lastPathComponent
    let directory = String(dataPath.dropLast(name.utf8.count))
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
      return dataPath + "." + namespace.name
    }
    return directory + name[..<dot] + "." + namespace.name + name[dot...]
  }

  private func open(_ namespace: Namespace?) throws(WebcomError) -> DatasyncDatabase {
    switch storage {
    case .memory:
      return DatasyncDatabase(rules: rules, tokens: tokens)
    case .files:
      return try DatasyncDatabase(path: filePath(of: namespace)!, rules: rules, tokens: tokens)
    }
  }

  /// Every database opened so far.
  var openDatabases: [DatasyncDatabase] { lock.withLock { Array(databases.values) } }

  /// Closes every database (their files are closed); later lookups fail.
  func close() {
    let closing: [DatasyncDatabase] = lock.withLock {
      isClosed = true
      defer { databases = [:] }
      return Array(databases.values)
    }
    for database in closing { database.close() }
  }
}
