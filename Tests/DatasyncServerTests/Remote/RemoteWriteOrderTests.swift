import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// A write under a listened location that has not brought its value yet: the write waits for
/// that value, so that the value (taken before the write) cannot arrive after the write's answer
/// and take the write back on the screen until its announcement shows it again.
@Suite(.timeLimit(.minutes(1))) struct RemoteWriteOrderTests {
  /// A server on 127.0.0.1 that answers every request with ``handle(_:_:)``, which subclasses
  /// script; it stops when released.
  class ScriptedServer: @unchecked Sendable {
    /// Protects `http`, and the state of subclasses.
    let lock = NSLock()
    private var http: HTTPServer?

    var port: Int { lock.withLock { http?.port ?? 0 } }

    init() throws {
      let server = try startServer { [weak self] request, responder in
        self?.handle(request, responder)
      }
      lock.withLock { http = server }
    }

    deinit { lock.withLock { http }?.stop() }

    /// Answers a request (from the server's thread).
    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {}
  }

  /// A server that streams `/room`, sends each stream's value `valueDelay` seconds after the
  /// stream opened, and logs what it received and sent in order: `stream n`, `value n`,
  /// `PUT n`. A `PUT` that arrives while a stream's value is held is answered at once, and the
  /// held value (from before the write) follows it, as from a server that took the value before
  /// the write but sent it late; a `PUT` after the value is answered, then announced on the
  /// stream.
  final class HeldValueServer: ScriptedServer, @unchecked Sendable {
    // `lock` protects every stored `var`.
    private var log: [String] = []
    private var streams: [HTTPEventStream] = []
    /// Whether the newest stream got its value.
    private var sentValue = false
    /// What the `PUT`s wrote, as `(path below /room, JSON)`.
    private var written: [(path: String, json: String)] = []
    let valueDelay: TimeInterval
    /// Whether the `n`th `PUT` is answered (else it is held, never answered).
    let answersPUT: @Sendable (Int) -> Bool
    private var puts = 0
    private var held: [HTTPResponder] = []

    var entries: [String] { lock.withLock { log } }

    init(
      valueDelay: TimeInterval = 0.3, answersPUT: @escaping @Sendable (Int) -> Bool = { _ in true }
    )
      throws
    {
      self.valueDelay = valueDelay
      self.answersPUT = answersPUT
      try super.init()
    }

    override func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
      let isStream = request.headers.values(for: "Accept").contains { $0.contains("event-stream") }
      if isStream {
        guard let stream = try? responder.openEventStream() else { return }
        let number = lock.withLock {
          streams.append(stream)
          sentValue = false
          log.append("stream \(streams.count - 1)")
          return streams.count - 1
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + valueDelay) { [weak self] in
          self?.sendValue(of: number)
        }
      } else if request.method == "PUT" {
        let path = request.path.replacingOccurrences(of: "/room", with: "")
          .replacingOccurrences(of: ".json", with: "")
        let json = String(decoding: request.body, as: UTF8.self)
        let (number, valueSent) = lock.withLock {
          defer { puts += 1 }
          log.append("PUT \(puts)")
          return (puts, sentValue)
        }
        guard answersPUT(number) else { return lock.withLock { held.append(responder) } }
        _ = responder.respond(HTTPResponse(status: .ok, body: json))
        lock.withLock { written.append((path, json)) }
        if valueSent { announce(path: path, json: json) }
      } else {
        _ = responder.respond(HTTPResponse(status: .ok, body: "null"))
      }
    }

    /// Sends the value of stream `number` (the data before the writes answered meanwhile), then
    /// announces those writes on it.
    private func sendValue(of number: Int) {
      let (stream, pending) = lock.withLock { () -> (HTTPEventStream?, [(String, String)]) in
        guard number == streams.count - 1, !sentValue else { return (nil, []) }
        sentValue = true
        log.append("value \(number)")
        defer { written = [] }
        return (streams[number], written.map { ($0.path, $0.json) })
      }
      guard let stream else { return }
      try? stream.send(event: "put", data: #"{"path":"/","data":null}"#)
      for (path, json) in pending { try? stream.send(event: "put", data: announcement(path, json)) }
    }

    private func announce(path: String, json: String) {
      guard let stream = lock.withLock({ streams.last }) else { return }
      lock.withLock { written.removeAll { $0.path == path } }
      try? stream.send(event: "put", data: announcement(path, json))
    }

    private func announcement(_ path: String, _ json: String) -> String {
      #"{"path":"\#(path)","data":\#(json)}"#
    }
  }

  /// A server where `/room/c` is `{"x":1}`: it streams `/room/c` at once, holds a `PUT` until a
  /// stream of `/room` was asked for, then answers it and, `valueDelay` seconds later (never
  /// when nil), sends that stream's value taken before the write, then announces the write on
  /// both streams.
  final class LateListenServer: ScriptedServer, @unchecked Sendable {
    // `lock` protects `streams` and `put`.
    private var streams: [String: HTTPEventStream] = [:]
    private var put: (responder: HTTPResponder, json: String)?
    let valueDelay: TimeInterval?
    /// One entry per `PUT` answered.
    let answers = Recorder<Bool>()

    init(valueDelay: TimeInterval? = 0.2) throws {
      self.valueDelay = valueDelay
      try super.init()
    }

    override func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
      let path = request.path.replacingOccurrences(of: ".json", with: "")
      if request.headers.values(for: "Accept").contains(where: { $0.contains("event-stream") }) {
        guard let stream = try? responder.openEventStream() else { return }
        lock.withLock { streams[path] = stream }
        if path == "/room/c" {
          try? stream.send(event: "put", data: #"{"path":"/","data":{"x":1}}"#)
        }
      } else if request.method == "PUT" {
        lock.withLock { put = (responder, String(decoding: request.body, as: UTF8.self)) }
      } else {
        _ = responder.respond(HTTPResponse(status: .ok, body: "null"))
        return
      }
      answerWhenBothArrived()
    }

    private func answerWhenBothArrived() {
      let ready = lock.withLock { () -> (HTTPResponder, String, HTTPEventStream)? in
        guard let put, let room = streams["/room"] else { return nil }
        self.put = nil
        return (put.responder, put.json, room)
      }
      guard let (responder, json, room) = ready else { return }
      answers.append(responder.respond(HTTPResponse(status: .ok, body: json)))
      let child = lock.withLock { streams["/room/c"] }
      guard let valueDelay else { return }
      DispatchQueue.global().asyncAfter(deadline: .now() + valueDelay) {
        try? room.send(event: "put", data: #"{"path":"/","data":{"c":{"x":1}}}"#)
        try? room.send(event: "put", data: #"{"path":"/c/y","data":\#(json)}"#)
        try? child?.send(event: "put", data: #"{"path":"/y","data":\#(json)}"#)
      }
    }
  }

  private func events(of client: RemoteClient) throws -> Recorder<String> {
    let events = Recorder<String>()
    try client.node("room").subscribe(
      to: .child(addition: true, change: true, removal: true),
      queue: DispatchQueue(label: "test.write-order"),
      onEvent: { events.append(describeRemote($0)) })
    return events
  }

  @Test func aWriteUnderANewListenIsSentOnceTheListensValueArrived() throws {
    let server = try HeldValueServer()
    let client = RemoteClient(url: URL(string: "http://127.0.0.1:\(server.port)")!)
    #expect(client.states.wait(connected: true))
    let events = try events(of: client)
    try client.wait { queue, then in try! client.node("room/c").set(1, queue: queue, then: then) }

    #expect(server.entries == ["stream 0", "value 0", "PUT 0"])
    let expected = ["+c 1"]
    #expect(events.wait(for: 1) == expected)
    // The write's announcement follows; it changes nothing on the screen.
    #expect(events.wait(timeout: 0.5) { $0.count > 1 } == expected)
  }

  @Test func aWriteSentAgainAfterReconnectionWaitsForTheRenewedListensValue() throws {
    let server = try HeldValueServer(answersPUT: { $0 > 0 })
    let options = RemoteOptions(
      requestTimeout: 0.6, idleTimeout: 5,
      reconnection: RemoteReconnectionPolicy(initialDelay: 0.01, maximumDelay: 0.05))
    let client = RemoteClient(
      url: URL(string: "http://127.0.0.1:\(server.port)")!, options: options)
    let events = try events(of: client)
    #expect(client.states.wait(connected: true))
    try client.wait { queue, then in try! client.node("room/c").set(1, queue: queue, then: then) }

    #expect(client.states.connections == 2)
    #expect(server.entries == ["stream 0", "value 0", "PUT 0", "stream 1", "value 1", "PUT 1"])
    let expected = ["+c 1"]
    #expect(events.wait(for: 1) == expected)
    #expect(events.wait(timeout: 0.5) { $0.count > 1 } == expected)
  }

  /// A client of `server` shows the children of `room/c`, writes `room/c/y`, then listens to
  /// `room` (its values to `onRoomValue`) while the write is in flight. Returns the client, its
  /// events at `room/c` and the write's answers.
  private func writeThenListenAbove(
    on server: LateListenServer, onRoomValue: @escaping @Sendable (String) -> Void
  ) throws -> (RemoteClient, events: Recorder<String>, answered: Recorder<Bool>) {
    let client = RemoteClient(url: URL(string: "http://127.0.0.1:\(server.port)")!)
    let events = Recorder<String>()
    try client.node("room/c").subscribe(
      to: .child(addition: true, change: true, removal: true),
      queue: DispatchQueue(label: "test.write-order"),
      onEvent: { events.append(describeRemote($0)) })
    #expect(events.wait(for: 1) == ["+x 1"])
    let answered = Recorder<Bool>()
    try client.node("room/c/y").set(2, queue: DispatchQueue(label: "test.result")) {
      answered.append((try? $0.get()) != nil)
    }
    try client.node("room").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.room"),
      onEvent: { onRoomValue($0.value.json) })
    return (client, events, answered)
  }

  @Test func anAnswerWaitsForTheValueOfAListenOpenedWhileItsWriteWasInFlight() throws {
    let server = try LateListenServer()
    let room = Recorder<String>()
    let (client, events, answered) = try writeThenListenAbove(on: server, onRoomValue: room.append)

    #expect(answered.wait(for: 1) == [true])
    #expect(room.wait(for: 1) == [#"{"c":{"x":1,"y":2}}"#])
    // The write's announcements follow the value; they change nothing on the screen.
    let expected = ["+x 1", "+y 2"]
    #expect(events.wait(timeout: 0.5) { $0.count > 2 } == expected)
    withExtendedLifetime(client) {}
  }

  @Test func anAnswerWaitingAtADisconnectionReachesTheClientAfterTheNextConnection() throws {
    let server = try LateListenServer(valueDelay: nil)
    let (client, _, answered) = try writeThenListenAbove(on: server, onRoomValue: { _ in })
    #expect(server.answers.wait(for: 1) == [true])
    // The value of `/room` never comes: the answer waits for it.
    #expect(answered.wait(timeout: 0.3) { !$0.isEmpty }.isEmpty)

    client.application.datasyncService.isConnectionEnabled = false
    #expect(client.states.wait(connected: false))
    client.application.datasyncService.isConnectionEnabled = true
    #expect(answered.wait(for: 1) == [true])
  }
}
