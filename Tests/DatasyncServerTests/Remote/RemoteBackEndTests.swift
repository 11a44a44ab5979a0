import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// The remote back end against a `datasync serve` server on 127.0.0.1: connection, listens,
/// writes, reads.
@Suite(.timeLimit(.minutes(1))) struct RemoteBackEndTests {
  @Test func connectsAndDeliversAnotherClientsWrites() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    #expect(alice.states.wait(connected: true))
    let events = Recorder<String>()
    try alice.node("room").subscribe(
      to: .child(addition: true, change: true, removal: true),
      queue: DispatchQueue(label: "test.events"), onEvent: { events.append(describeRemote($0)) })
    try bob.wait { queue, then in try! bob.node("room/a").set(1, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("room/a").set(2, queue: queue, then: then) }
    try bob.wait { queue, then in try! bob.node("room/a").clear(queue: queue, then: then) }
    let seen = events.wait { $0.contains("-a") }
    #expect(seen == ["+a 1", "~a 2", "-a"])
  }

  @Test func ownWritesRaiseTheirEventsOnceWhateverComesFirstAnswerOrAnnouncement() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let queue = DispatchQueue(label: "test.events")
    for round in 0..<10 {
      let events = Recorder<String>()
      // Written at once after subscribing: the stream may start before or after the write.
      try alice.node("r\(round)").subscribe(
        to: .child(addition: true, change: true, removal: true), queue: queue,
        onEvent: { events.append(describeRemote($0)) })
      let answers = Recorder<Bool>()
      for value in 1...5 {
        try alice.node("r\(round)/a").set(value, queue: queue) {
          answers.append((try? $0.get()) != nil)
        }
      }
      #expect(answers.wait(for: 5) == Array(repeating: true, count: 5))
      try alice.wait { queue, then in
        try! alice.node("r\(round)/b").set(0, queue: queue, then: then)
      }
      // The view completes when the stream brings the data, by then holding some of the writes:
      // the value of a grows to 5, each once, and is never removed.
      let seen = events.wait { $0.contains("+b 0") }
      #expect(seen.last == "+b 0", "round \(round): \(seen)")
      let values = seen.dropLast().compactMap { Int($0.split(separator: " ").last ?? "") }
      #expect(seen.first?.hasPrefix("+a ") == true, "round \(round): \(seen)")
      #expect(seen.dropFirst().dropLast().allSatisfy { $0.hasPrefix("~a ") }, "\(seen)")
      #expect(values.last == 5 && values == values.sorted() && Set(values).count == values.count)
    }
  }

  @Test func incrementsAnswerTheirResultsAndReadsTheValue() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let first = try alice.wait { queue, then in
      try! alice.node("count").increment(by: 2, queue: queue, then: then)
    }
    let second = try alice.wait { queue, then in
      try! alice.node("count").increment(by: 3, queue: queue, then: then)
    }
    #expect([first.json, second.json] == ["2", "5"])
    let read = try alice.wait { queue, then in
      try! alice.node("count").value(queue: queue, then: then)
    }
    #expect(read.json == "5")
    let refused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("other").increment(from: 10, by: 1, queue: queue, then: then)
      }
    }
    #expect(refused?.code == .invalidArgument)
    #expect(refused?.message.contains("starts from 0") == true)
  }
}
