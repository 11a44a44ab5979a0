import Foundation

@testable import Datasync

/// A fresh directory for a test's database files, removed with its contents when released.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("datasync-storage-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }

  /// The path of a file in the directory.
  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }
}

/// Parses JSON text into the value model.
func jsonValue(_ text: String) throws -> JSONValue {
  try JSONValue.fromJSONData(Data(text.utf8))
}

/// Parses an absolute path.
func datasyncPath(_ text: String) throws -> DatasyncPath {
  try DatasyncPath(parsing: text)
}
