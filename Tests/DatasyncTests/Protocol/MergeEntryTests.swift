import Foundation
import Testing

@testable import Datasync

/// The entries of a merge: keys parsed strictly as relative paths, no two overlapping.
@Suite struct MergeEntryTests {
  private static func entries(_ keys: [String]) throws(WebcomError) -> [MergeEntry] {
    try MergeEntry.entries(from: keys.map { (key: WebcomKey($0), value: JSONValue.int(1)) })
  }

  @Test func keysBecomeSortedRelativePaths() throws {
    let entries = try Self.entries(["c", "a/b", "\u{E9}t\u{E9}/x y", "10", "9", "a/aa/b"])
    #expect(entries.map(\.relativePath) == ["9", "10", "a/aa/b", "a/b", "c", "\u{E9}t\u{E9}/x y"])
    #expect(entries[2].keys == ["a", "aa", "b"])
    #expect(
      entries[2].path(under: try DatasyncPath(parsing: "room"))
        == (try DatasyncPath(parsing: "room/a/aa/b")))
  }

  @Test(arguments: [
    (["a", "a/b"], "a", "a/b"),
    (["a/b/c", "a/bb", "a/b"], "a/b", "a/b/c"),
    (["x/y/z/w", "q", "x/y", "x/yz"], "x/y", "x/y/z/w"),
  ])
  func overlappingKeysAreNamed(keys: [String], outer: String, inner: String) {
    #expect {
      try Self.entries(keys)
    } throws: { error in
      let error = error as? WebcomError
      return error?.code == .invalidArgument
        && error?.message.contains("\"\(outer)\" and \"\(inner)\"") == true
    }
  }

  @Test func theSameLocationTwiceIsAnOverlap() {
    #expect(throws: WebcomError.self) {
      try MergeEntry.entries(from: [(key: "a/b", value: .int(1)), (key: "a/b", value: .int(2))])
    }
  }

  @Test func footprintsGroupTheWrittenChildrenByParent() throws {
    let room = try DatasyncPath(parsing: "room")
    let single = WriteOperation.merge(room, try Self.entries(["b", "a"]))
    #expect(single.footprints.map(\.path) == [room])
    #expect(single.footprints.map(\.children) == [["a", "b"]])
    let multiple = WriteOperation.merge(room, try Self.entries(["a/b", "c", "a/c", "d/e/f"]))
    #expect(
      multiple.footprints.map(\.path.string) == ["/room/a", "/room", "/room/d/e"])
    #expect(multiple.footprints.map(\.children) == [["b", "c"], ["c"], ["f"]])
    #expect(WriteOperation.merge(room, []).footprints.map(\.children) == [[]])
  }
}
