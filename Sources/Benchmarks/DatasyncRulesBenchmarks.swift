import Datasync

/// The benchmark cases of the security rules: the access check of one write, under a 20-rule set
/// with `.validate` and under open rules, against the engine's own application of the write.
enum DatasyncRulesBenchmarks {
  static func run(_ harness: BenchmarkHarness) {
    let names = [
      "rules: check a message write", "rules: apply a message write",
      "rules: message write, engine apply",
    ]
    guard names.contains(where: harness.includes) else { return }
    var floors: [Int: (apply: Double, open: Double, chat: Double)] = [:]
    for (rooms, messagesPerRoom) in [(10, 100), (100, 1_000)] {
      let write = RulesProbes.messageWrite(rooms: rooms, messagesPerRoom: messagesPerRoom)
      let size = "\(write.messageCount) messages"
      guard write.checkUnderChatRules(), write.checkUnderOpenRules() else {
        fatalError("the benchmark's message write is refused")
      }
      let chat = harness.measure(
        "rules: check a message write, 21 chat rules, \(size)", iterations: 200_000
      ) {
        blackHole(write.checkUnderChatRules())
      }
      let open = harness.measure(
        "rules: check a message write, open rules, \(size)", iterations: 200_000
      ) {
        blackHole(write.checkUnderOpenRules())
      }
      let apply = harness.measure(
        "rules: apply a message write (engine, no rules), \(size)", iterations: 200_000
      ) {
        blackHole(write.apply())
      }
      floors[write.messageCount] = (apply, open, chat)
    }
    for (count, floor) in floors.sorted(by: { $0.key < $1.key }) {
      harness.reportRatio(
        "rules: message write, engine apply + check: chat rules / open rules (\(count) messages)",
        floor.apply + floor.chat, floor.apply + floor.open, goal: 1.5)
    }
  }
}
