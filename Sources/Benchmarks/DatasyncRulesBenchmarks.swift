import Datasync

/// The benchmark cases of the security rules: a message written into a chat database through
/// the back end (checked, applied, acknowledged, announced to a listening client) under a
/// 21-rule set with `.validate` and under open rules, and the access check of one write alone.
enum DatasyncRulesBenchmarks {
  static func run(_ harness: BenchmarkHarness) {
    for (rooms, messagesPerRoom) in [(10, 100), (100, 1_000)] {
      let size = "\(rooms * messagesPerRoom) messages"
      databaseWrites(harness, rooms: rooms, messagesPerRoom: messagesPerRoom, size: size)
      checks(harness, rooms: rooms, messagesPerRoom: messagesPerRoom, size: size)
    }
  }

  /// The whole write through the database, and the ratio the rules cost.
  private static func databaseWrites(
    _ harness: BenchmarkHarness, rooms: Int, messagesPerRoom: Int, size: String
  ) {
    let chatName = "rules: message write through the database, 21 chat rules, \(size)"
    let openName = "rules: message write through the database, open rules, \(size)"
    guard [chatName, openName].contains(where: harness.includes) else { return }
    let chat = RulesProbes.databaseWrites(
      rooms: rooms, messagesPerRoom: messagesPerRoom, chatRules: true)
    let open = RulesProbes.databaseWrites(
      rooms: rooms, messagesPerRoom: messagesPerRoom, chatRules: false)
    for writes in [chat, open] {
      writes.writeNext()
      guard writes.lastWriteApplied() else { fatalError("the benchmark's message is refused") }
    }
    let (openTime, chatTime) = harness.measurePair(
      floor: openName, chatName, iterations: 100_000, floor: { open.writeNext() },
      case: { chat.writeNext() })
    guard chat.lastWriteApplied(), open.lastWriteApplied() else {
      fatalError("the benchmark's messages were refused")
    }
    harness.reportRatio(
      "rules: message write through the database, chat rules / open rules, \(size)", chatTime,
      openTime, goal: 1.5)
  }

  /// The access check of one write alone, under each set of rules.
  private static func checks(
    _ harness: BenchmarkHarness, rooms: Int, messagesPerRoom: Int, size: String
  ) {
    let chatName = "rules: check a message write, 21 chat rules, \(size)"
    let openName = "rules: check a message write, open rules, \(size)"
    guard [chatName, openName].contains(where: harness.includes) else { return }
    let write = RulesProbes.messageWrite(rooms: rooms, messagesPerRoom: messagesPerRoom)
    guard write.checkUnderChatRules(), write.checkUnderOpenRules() else {
      fatalError("the benchmark's message write is refused")
    }
    harness.measure(chatName, iterations: 200_000) { blackHole(write.checkUnderChatRules()) }
    harness.measure(openName, iterations: 200_000) { blackHole(write.checkUnderOpenRules()) }
  }
}
