import Testing

@testable import Datasync

@Suite struct ListenIndexTests {
  private final class Client {}

  private static let alphabet: [WebcomKey] = ["a", "b", "c"]

  private static func randomPath(depth: ClosedRange<Int>, using generator: inout SeededRandom)
    -> DatasyncPath
  {
    DatasyncPath(
      validatedKeys: (0..<Int.random(in: depth, using: &generator)).map { _ in
        alphabet.randomElement(using: &generator)!
      })
  }

  /// Whether a write may change a listen, by the definition: the listen is at or above the
  /// written node, or below it inside what it writes.
  private static func touches(_ write: WriteOperation, _ listen: DatasyncPath) -> Bool {
    if listen.isAncestorOrSelf(of: write.path) { return true }
    guard write.path.isAncestor(of: listen) else { return false }
    guard case .merge(let path, let entries) = write else { return true }
    let relative = listen.relative(to: path)
    return entries.contains { $0.keys.starts(with: relative) || relative.starts(with: $0.keys) }
  }

  /// The touched listens by client, once checked that each is listed once and that those of a
  /// client are next to each other.
  private static func byClient(
    _ listens: [ListenIndex.TouchedListen], sourceLocation: SourceLocation = #_sourceLocation
  ) -> [ObjectIdentifier: Set<DatasyncPath>] {
    #expect(
      Set(listens).count == listens.count, "a listen listed twice", sourceLocation: sourceLocation)
    let clients = listens.map(\.client)
    let runs =
      zip(clients, clients.dropFirst()).filter { $0 != $1 }.count + (clients.isEmpty ? 0 : 1)
    #expect(runs == Set(clients).count, "a client's listens apart", sourceLocation: sourceLocation)
    return Dictionary(grouping: listens, by: \.client).mapValues { Set($0.map(\.path)) }
  }

  @Test func touchedListensMatchAScanOfEveryListen() {
    var generator = SeededRandom(seed: 7)
    let clients = (0..<6).map { _ in Client() }
    var index = ListenIndex()
    var listens: [ObjectIdentifier: Set<DatasyncPath>] = [:]
    for round in 0..<2_000 {
      let client = ObjectIdentifier(clients.randomElement(using: &generator)!)
      let path = Self.randomPath(depth: 0...4, using: &generator)
      if Bool.random(using: &generator) {
        index.insert(path, for: client)
        listens[client, default: []].insert(path)
      } else {
        index.remove(path, for: client)
        listens[client]?.remove(path)
      }
      guard round % 4 == 0 else { continue }
      let writePath = Self.randomPath(depth: 0...3, using: &generator)
      let write: WriteOperation
      if Bool.random(using: &generator) {
        write = .set(writePath, .int(1))
      } else {
        var seen: Set<[WebcomKey]> = []
        var entries: [MergeEntry] = []
        for _ in 0..<Int.random(in: 1...3, using: &generator) {
          let keys = Self.randomPath(depth: 1...2, using: &generator).keys
          // Entries never overlap.
          guard !seen.contains(where: { $0.starts(with: keys) || keys.starts(with: $0) }) else {
            continue
          }
          seen.insert(keys)
          entries.append(MergeEntry(keys: keys, value: .int(2)))
        }
        write = .merge(writePath, entries)
      }
      var expected: [ObjectIdentifier: Set<DatasyncPath>] = [:]
      for (client, paths) in listens {
        let touched = paths.filter { Self.touches(write, $0) }
        if !touched.isEmpty { expected[client] = touched }
      }
      #expect(
        Self.byClient(index.listens(touchedBy: write)) == expected, "round \(round): \(write.path)")
      let writer = ObjectIdentifier(clients.randomElement(using: &generator)!)
      expected[writer] = nil
      #expect(
        Self.byClient(index.listens(touchedBy: write, excluding: writer)) == expected,
        "round \(round): \(write.path) excluding its writer")
    }
  }

  @Test func aWriteOnlyItsWriterListensToTouchesNoOtherListen() {
    let writer = ObjectIdentifier(Client.self)
    let other = ObjectIdentifier(ListenIndexTests.self)
    let room = DatasyncPath(validatedKeys: ["room"])
    let message = DatasyncPath(validatedKeys: ["room", "a"])
    var index = ListenIndex()
    index.insert(room, for: writer)
    index.insert(room, for: writer)
    #expect(index.listens(touchedBy: .set(message, .int(1)), excluding: writer).isEmpty)
    #expect(Self.byClient(index.listens(touchedBy: .set(message, .int(1)))) == [writer: [room]])
    index.insert(message, for: other)
    #expect(
      Self.byClient(index.listens(touchedBy: .set(message, .int(1)), excluding: writer))
        == [other: [message]])
    index.remove(DatasyncPath(validatedKeys: ["elsewhere"]), for: other)
    index.remove(room, for: other)
    #expect(
      Self.byClient(index.listens(touchedBy: .set(room, .null), excluding: writer)) == [
        other: [message]
      ])
    index.remove(message, for: other)
    #expect(index.listens(touchedBy: .set(room, .null), excluding: writer).isEmpty)
    index.remove(room, for: writer)
    #expect(index.listens(touchedBy: .set(room, .null)).isEmpty)
  }

  @Test func removingTheLastListenOfABranchForgetsIt() {
    let client = ObjectIdentifier(Client.self)
    var index = ListenIndex()
    let deep = DatasyncPath(validatedKeys: ["a", "b", "c"])
    index.insert(deep, for: client)
    index.insert(DatasyncPath(validatedKeys: ["a"]), for: client)
    index.remove(deep, for: client)
    #expect(
      Self.byClient(index.listens(touchedBy: .set(deep, .null))) == [
        client: [DatasyncPath(validatedKeys: ["a"])]
      ])
    index.remove(DatasyncPath(validatedKeys: ["a"]), for: client)
    #expect(index.listens(touchedBy: .set(.root, .null)).isEmpty)
  }
}
