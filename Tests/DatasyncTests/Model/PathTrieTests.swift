import Testing

@testable import Datasync

/// The map from paths to values that finds those at, above or below a path: every query answers
/// as a scan of all the paths would, in its list form (a few paths) and its trie form (more), and
/// across the changes from one to the other.
@Suite struct PathTrieTests {
  private static func path(_ text: String) -> DatasyncPath {
    try! DatasyncPath(parsing: text)
  }

  /// Every path of up to three keys among a, b and c: they overlap often.
  private static let universe: [DatasyncPath] = {
    var paths = [DatasyncPath.root]
    var level = [DatasyncPath.root]
    for _ in 0..<3 {
      level = level.flatMap { parent in ["a", "b", "c"].map { parent.child(WebcomKey($0)) } }
      paths += level
    }
    return paths
  }()

  /// The answers of a scan of `entries` and of `trie` to every query at `path` are the same.
  private static func expectSameAnswers(
    _ trie: PathTrie<Int>, _ entries: [DatasyncPath: Int], at path: DatasyncPath,
    _ comment: Comment
  ) {
    #expect(trie.count == entries.count, comment)
    #expect(trie.isEmpty == entries.isEmpty, comment)
    #expect(trie[path] == entries[path], comment)
    #expect(
      trie.containsValue(atOrAround: path) == entries.keys.contains { $0.overlaps(path) }, comment)
    #expect(
      trie.containsValue(below: path) == entries.keys.contains { path.isAncestor(of: $0) },
      comment)
    var around: [Int] = []
    trie.forEachValue(atOrAround: path) { around.append($0) }
    #expect(around.sorted() == entries.filter { $0.key.overlaps(path) }.values.sorted(), comment)
    let children: Set<WebcomKey> = ["a", "c"]
    var aroundChildren: [Int] = []
    trie.forEachValue(atOrAround: path, inChildren: children) { aroundChildren.append($0) }
    let expectedAroundChildren = entries.filter { entry in
      entry.key.isAncestorOrSelf(of: path)
        || (path.isAncestor(of: entry.key) && children.contains(entry.key.keys[path.depth]))
    }
    #expect(aroundChildren.sorted() == expectedAroundChildren.values.sorted(), comment)
    var below: [Int] = []
    trie.forEachValue(atOrBelow: path) { below.append($0) }
    let atOrBelow = entries.filter { path.isAncestorOrSelf(of: $0.key) }
    #expect(below.sorted() == atOrBelow.values.sorted(), comment)
    #expect(
      Set(trie.paths(atOrBelow: path)) == Set(atOrBelow.keys), comment)
  }

  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func answersAsAScanOfEveryPathWhileGrowingAndShrinking(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var trie = PathTrie<Int>()
    var entries: [DatasyncPath: Int] = [:]
    var copies: [(PathTrie<Int>, [DatasyncPath: Int])] = []
    var crossedLimit = (up: 0, down: 0)
    var isAboveLimit = false
    for step in 0..<480 {
      // Phases that grow the map past the list's limit and shrink it back: sets of any path,
      // then mostly removals of paths that have a value.
      let grows = (step / 60) % 2 == 0
      var path = Self.universe[Int.random(in: 0..<Self.universe.count, using: &random)]
      if grows || random.nextUnitInterval() < 0.1 {
        trie[path] = step
        entries[path] = step
      } else {
        let present = entries.keys.sorted { $0.description < $1.description }
        if !present.isEmpty { path = present[Int.random(in: 0..<present.count, using: &random)] }
        trie[path] = nil
        entries[path] = nil
      }
      if !isAboveLimit && trie.count > PathTrie<Int>.linearLimit {
        isAboveLimit = true
        crossedLimit.up += 1
      }
      if isAboveLimit && trie.count <= PathTrie<Int>.linearLimit / 2 {
        isAboveLimit = false
        crossedLimit.down += 1
      }
      if step % 37 == 0 { copies.append((trie, entries)) }
      for query in [
        path, Self.universe[Int.random(in: 0..<Self.universe.count, using: &random)], .root,
      ] {
        Self.expectSameAnswers(trie, entries, at: query, "step \(step) at \(query)")
      }
    }
    #expect(crossedLimit.up > 0 && crossedLimit.down > 0)
    // A copy keeps the values it had, whatever was written to the map since.
    for (index, (copy, copiedEntries)) in copies.enumerated() {
      for path in Self.universe {
        #expect(copy[path] == copiedEntries[path], "copy \(index) at \(path)")
      }
    }
  }

  @Test func defaultSubscriptReadsAndWritesThrough() {
    var trie = PathTrie<[String]>()
    let room = Self.path("rooms/general")
    trie[room, default: []].append("first")
    trie[room, default: []].append("second")
    #expect(trie[room] == ["first", "second"])
    #expect(trie[Self.path("rooms"), default: ["none"]] == ["none"])
    #expect(trie.count == 1)
  }

  @Test func removingTheLastValueOfABranchLeavesNothingBelowIt() {
    var trie = PathTrie<Int>()
    for index in 0...PathTrie<Int>.linearLimit {
      trie[Self.path("a/b/k\(index)")] = index
    }
    #expect(trie.containsValue(below: Self.path("a")))
    for index in 0...PathTrie<Int>.linearLimit {
      trie[Self.path("a/b/k\(index)")] = nil
    }
    #expect(trie.isEmpty)
    #expect(!trie.containsValue(atOrAround: Self.path("a")))
    #expect(trie.paths(atOrBelow: .root).isEmpty)
  }
}
