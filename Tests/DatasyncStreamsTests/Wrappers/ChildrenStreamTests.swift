import Datasync
import DatasyncStreams
import Streams
import StreamsTesting
import Testing

@Suite(.timeLimit(.minutes(1))) struct ChildrenStreamTests {
  @Test func initialLoadIsOneCompleteEmissionThenOneInsertionPerPush() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let messages = try #require(manager.node(for: "rooms/general/messages"))
    let seed = try await seedMessages(500, at: messages)

    var feed = messages.streams.children(as: Message.self).values.makeAsyncIterator()
    let initial = try #require(try await feed.next())
    #expect(initial.count == 500)
    #expect(initial.changes.isInitialLoad)
    #expect(initial.changes.inserted == Array(0..<500))
    #expect(initial.keys.map(\.value) == seed.keys.sorted())
    #expect(initial["m042"] == seed["m042"])

    for index in 0..<10 {
      let pushed = try await messages.push(Message(author: "live", text: "live \(index)"))
      let next = try #require(try await feed.next())
      #expect(next.count == 501 + index)
      #expect(!next.changes.isInitialLoad)
      let position = try #require(next.index(forKey: pushed.key))
      #expect(next.changes.inserted == [position])
      #expect(next.changes.removed.isEmpty && next.changes.updated.isEmpty)
      #expect(next[position].value == Message(author: "live", text: "live \(index)"))
    }
  }

  @Test func resubscribingNeverDuplicates() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let messages = try #require(manager.node(for: "rooms/general/messages"))
    _ = try await seedMessages(500, at: messages)
    var expected = 500
    for round in 0..<20 {
      var feed = messages.streams.children(as: Message.self).values.makeAsyncIterator()
      let initial = try #require(try await feed.next())
      #expect(initial.count == expected)
      #expect(Set(initial.keys).count == initial.count)
      _ = try await messages.push(Message(author: "round", text: "\(round)"))
      expected += 1
      let next = try #require(try await feed.next())
      #expect(next.count == expected)
      #expect(Set(next.keys).count == next.count)
    }
  }

  @Test func changesAndRemovalsCarryTheirPositions() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "list"))
    try await node.set(["a": 1, "b": 2, "c": 3, "d": 4])
    var feed = node.streams.children(as: Int.self).values.makeAsyncIterator()
    let initial = try #require(try await feed.next())
    #expect(initial.values == [1, 2, 3, 4])

    try await (node / "c")!.set(30)
    let changed = try #require(try await feed.next())
    #expect(changed.changes.updated == [2])
    #expect(changed.values == [1, 2, 30, 4])

    try await (node / "b")!.clear()
    let removed = try #require(try await feed.next())
    #expect(removed.changes.removed == [1])
    #expect(removed.keys == ["a", "c", "d"])

    try await node.merge(with: ["a": nil, "e": 5, "d": 40] as [String: Int?])
    let merged = try #require(try await feed.next())
    #expect(merged.keys == ["c", "d", "e"])
    #expect(merged.changes.removed == [0])
    #expect(merged.changes.updated == [1])
    #expect(merged.changes.inserted == [2])
  }

  /// Random merges that add, change and remove decodable children, and turn children into and
  /// out of values that do not decode, each one emission: its positions lead from the previous
  /// emission to it (removals in the previous one, insertions and updates in the new one).
  @Test(arguments: [1, 2, 3] as [UInt64])
  func mergedChangesCarryThePositionsOfAModel(seed: UInt64) async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "merged"))
    var random = SeededRandom(seed: seed)
    let keys = (0..<40).map { String(format: "k%02d", $0) }
    // The model: each stored child's value, nil for one that does not decode as an Int.
    var stored: [String: Int?] = [:]
    var nextValue = 0
    var feed = node.streams.children(as: Int.self).values.makeAsyncIterator()
    var previous = try #require(try await feed.next())
    for _ in 0..<60 {
      var entries: [String: MergedChild] = [:]
      // One change of a decodable child at least, so that every merge is one emission.
      let changed = keys.randomElement(using: &random)!
      for key in keys.shuffled(using: &random).prefix(Int.random(in: 0...6, using: &random))
      where key != changed {
        switch Int.random(in: 0..<4, using: &random) {
        case 0:
          entries[key] = .removed
          stored[key] = nil
        case 1:
          entries[key] = .text("not a number")
          stored[key] = .some(nil)
        default:
          nextValue += 1
          entries[key] = .number(nextValue)
          stored[key] = nextValue
        }
      }
      nextValue += 1
      entries[changed] = .number(nextValue)
      stored[changed] = nextValue
      try await node.merge(with: entries)
      let next = try #require(try await feed.next())

      let decoded = stored.compactMap { key, value in value.map { (key, $0) } }
        .sorted { $0.0 < $1.0 }
      #expect(next.keys.map(\.value) == decoded.map(\.0))
      #expect(next.values == decoded.map(\.1))
      let oldKeys = previous.keys.map(\.value)
      let newKeys = next.keys.map(\.value)
      let written = Set(entries.keys)
      #expect(
        next.changes.removed
          == oldKeys.indices.filter { !newKeys.contains(oldKeys[$0]) })
      #expect(
        next.changes.inserted
          == newKeys.indices.filter { !oldKeys.contains(newKeys[$0]) })
      #expect(
        next.changes.updated
          == newKeys.indices.filter {
            oldKeys.contains(newKeys[$0]) && written.contains(newKeys[$0])
          })
      previous = next
    }
  }

  /// A child written by a merge: removed, a string, or a number.
  private enum MergedChild: Encodable {
    case removed
    case text(String)
    case number(Int)

    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      switch self {
      case .removed: try container.encodeNil()
      case .text(let text): try container.encode(text)
      case .number(let number): try container.encode(number)
      }
    }
  }

  @Test func undecodableChildrenAreLeftOutAndCounted() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "mixed"))
    try await node.set(["a": "x", "b": "y"])
    try await (node / "c")!.set(7)
    var feed = node.streams.children(as: String.self).values.makeAsyncIterator()
    let initial = try #require(try await feed.next())
    #expect(initial.keys == ["a", "b"])
    #expect(initial.undecodableCount == 1)

    try await (node / "c")!.set("z")
    let fixed = try #require(try await feed.next())
    #expect(fixed.keys == ["a", "b", "c"])
    #expect(fixed.undecodableCount == 0)
    #expect(fixed.changes.inserted == [2])
  }

  @Test func anUndecodableChildAmongTheInitialLoadIsCountedThenInsertedOnceFixed() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "mixed-middle"))
    try await node.set(["a": "x", "c": "z", "d": "w"])
    try await (node / "b")!.set(7)
    var feed = node.streams.children(as: String.self).values.makeAsyncIterator()
    let initial = try #require(try await feed.next())
    #expect(initial.keys == ["a", "c", "d"])
    #expect(initial.values == ["x", "z", "w"])
    #expect(initial.undecodableCount == 1)

    try await (node / "b")!.set("y")
    let fixed = try #require(try await feed.next())
    #expect(fixed.keys == ["a", "b", "c", "d"])
    #expect(fixed.undecodableCount == 0)
    #expect(fixed.changes.inserted == [1])
    #expect(fixed.index(forKey: "c") == 2)
  }

  @Test func emptyNodeEmitsAnEmptyInitialLoad() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "nothing/here"))
    var feed = node.streams.children(as: Int.self).values.makeAsyncIterator()
    let initial = try #require(try await feed.next())
    #expect(initial.isEmpty)
    #expect(initial.changes.isInitialLoad)
    try await (node / "1")!.set(1)
    let next = try #require(try await feed.next())
    #expect(next.keys == ["1"])
    #expect(next.changes.inserted == [0])
  }

  @Test func lastWindowKeepsTheLastChildren() async throws {
    let manager = makeApplication().datasyncService.createManager()
    let node = try #require(manager.node(for: "window"))
    var feed = node.streams.children(as: Int.self, childrenConstraint: .last(limit: 3)).values
      .makeAsyncIterator()
    _ = try await feed.next()
    for value in 0..<10 {
      try await (node / String(format: "k%02d", value))!.set(value)
    }
    var latest: DatasyncChildren<Int>?
    while latest?.values != [7, 8, 9] {
      latest = try await feed.next()
    }
    #expect(latest?.count == 3)
  }
}
