import Datasync

/// The benchmark cases of the security rules: the access check of one write, under a 20-rule set
/// with `.validate` and under open rules, against the engine's own application of the write.
///
/// The ratio adds each check to the application of the write alone, the cheapest part of a
/// write; a whole write through the database (with its delivery to clients) costs more, so its
/// ratio is lower.
enum DatasyncRulesBenchmarks {
  static func run(_ harness: BenchmarkHarness) {
    for (rooms, messagesPerRoom) in [(10, 100), (100, 1_000)] {
      let size = "\(rooms * messagesPerRoom) messages"
      let chatName = "rules: check a message write, 21 chat rules, \(size)"
      let openName = "rules: check a message write, open rules, \(size)"
      let applyName = "rules: apply a message write (engine, no rules), \(size)"
      guard [chatName, openName, applyName].contains(where: harness.includes) else { continue }
      let write = RulesProbes.messageWrite(rooms: rooms, messagesPerRoom: messagesPerRoom)
      guard write.checkUnderChatRules(), write.checkUnderOpenRules() else {
        fatalError("the benchmark's message write is refused")
      }
      let chat = harness.measure(chatName, iterations: 200_000) {
        blackHole(write.checkUnderChatRules())
      }
      let open = harness.measure(openName, iterations: 200_000) {
        blackHole(write.checkUnderOpenRules())
      }
      let apply = harness.measure(applyName, iterations: 200_000) {
        blackHole(write.apply())
      }
      guard [chat, open, apply].allSatisfy(\.isFinite) else { continue }
      harness.report(
        "rules: message write, (apply + check) chat rules / open rules, \(size)",
        value: (apply + chat) / (apply + open), unit: "x",
        note: "(apply alone stands for the write; the goal <= 1.5 is for a whole write)")
    }
  }
}
