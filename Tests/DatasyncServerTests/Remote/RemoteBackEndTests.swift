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
    // From another start, the increment travels on the session; the view raises each value
    // once.
    let values = Recorder<String>()
    try alice.node("other").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.values"),
      onEvent: { values.append($0.value.json) })
    #expect(values.wait(for: 1) == ["null"])
    let fromTen = try alice.wait { queue, then in
      try! alice.node("other").increment(from: 10, by: 1, queue: queue, then: then)
    }
    let again = try alice.wait { queue, then in
      try! alice.node("other").increment(from: 10, by: 1, queue: queue, then: then)
    }
    #expect([fromTen.json, again.json] == ["11", "12"])
    #expect(values.wait { $0.last == "12" } == ["null", "11", "12"])
    #expect(
      try server.server.database().value(at: DatasyncPath(parsing: "/other")) == .int(12))
  }
}

/// An increment whose announcement on the streams comes before its answer.
@Suite(.timeLimit(.minutes(1))) struct RemoteIncrementAnnouncementTests {
  /// A service whose root stream announces an increment's result (then a marker elsewhere)
  /// while it holds the increment's answer until ``releaseAnswer()``.
  final class EarlyAnnouncingService: @unchecked Sendable {
    /// Protects `stream` and `heldAnswer`.
    private let lock = NSLock()
    private var stream: HTTPEventStream?
    private var heldAnswer: HTTPResponder?
    private(set) var http: HTTPServer!

    init() throws {
      http = try startServer { [unowned self] request, responder in
        let isStream = request.headers.values(for: "Accept").contains {
          $0.contains("event-stream")
        }
        switch (request.method, request.path, isStream) {
        case ("GET", "/.json", true):
          let stream = try! responder.openEventStream()
          try? stream.send(event: "put", data: #"{"path":"/","data":null}"#)
          lock.withLock { self.stream = stream }
        case ("PUT", "/count.json", _):
          let stream = lock.withLock {
            heldAnswer = responder
            return self.stream
          }
          try? stream?.send(event: "put", data: #"{"path":"/count","data":1}"#)
          try? stream?.send(event: "put", data: #"{"path":"/marker","data":true}"#)
        case ("GET", "/.session.json", _):
          responder.respond(.jsonError(.notFound, message: "no such path"))
        default:
          responder.respond(HTTPResponse(body: "{}"))
        }
      }
    }

    func releaseAnswer() {
      lock.withLock { heldAnswer }?.respond(HTTPResponse(body: "1"))
    }

    deinit { http.stop() }
  }

  @Test func theAnnouncementWaitsForTheAnswerAndTheViewNeverCountsTheIncrementTwice() throws {
    let service = try EarlyAnnouncingService()
    let alice = RemoteClient(url: URL(string: "http://127.0.0.1:\(service.http.port)")!)
    let values = Recorder<String>()
    try alice.node("/").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.values"),
      onEvent: { values.append($0.value.json) })
    #expect(values.wait(for: 1) == ["null"])
    let result = Recorder<WebcomResult<DatasyncValue>>()
    try alice.node("count").increment(by: 1, queue: DispatchQueue(label: "test.result")) {
      result.append($0)
    }
    // The marker, announced after the increment's result, shows that both arrived; the
    // increment's announcement waits for its answer, so the view counts the increment once.
    let seen = values.wait { $0.last?.contains("marker") == true }
    #expect(seen == ["null", #"{"count":1}"#, #"{"count":1,"marker":true}"#], "\(seen)")
    service.releaseAnswer()
    #expect(try result.wait(for: 1).first?.get().json == "1")
    #expect(values.all == seen)
  }
}
