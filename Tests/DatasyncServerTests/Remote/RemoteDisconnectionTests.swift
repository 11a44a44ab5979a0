import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// Disconnection operations of remote clients, through the server's session extension: the
/// server runs them when the client goes offline or its connection drops, as the embedded back
/// end does.
@Suite(.timeLimit(.minutes(1))) struct RemoteDisconnectionTests {
  /// Records every value of a node as an in-process client of the server's database sees it:
  /// each change, in order, whatever happens to the remote clients' connections.
  final class ValueObserver {
    let values = Recorder<String>()
    private let application: WebcomApplication
    private let manager: DatasyncManager

    init(_ path: String, server: TestDatabaseServer) throws {
      application = WebcomApplication(
        configuration: WebcomConfiguration(
          identifier: "observer", backEnd: .embedded(try server.server.database())))
      manager = application.datasyncService.createManager()
      let values = self.values
      try manager.nodeThrows(for: path).subscribe(
        to: .valueChange, queue: DispatchQueue(label: "test.observer"),
        onEvent: { values.append($0.value.json) })
    }
  }

  @Test func aNextDisconnectionWriteRunsWhenTheClientGoesOffline() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server)
    let bob = RemoteClient("bob", server: server)
    let seen = Recorder<String>()
    try bob.node("presence/alice").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.bob"),
      onEvent: { seen.append($0.value.json) })
    let presence = try alice.node("presence/alice")
    try alice.wait { queue, then in presence.set("online", queue: queue, then: then) }
    try alice.wait { queue, then in
      presence.set("offline", at: .nextDisconnection, queue: queue, then: then)
    }
    #expect(seen.wait { $0.last == #""online""# }.last == #""online""#)
    alice.application.datasyncService.isConnectionEnabled = false
    #expect(seen.wait { $0.last == #""offline""# }.last == #""offline""#)
  }

  @Test func aDroppedConnectionRunsTheOperationsAndEveryDisconnectionOnesStayRegistered() throws {
    let server = try TestDatabaseServer()
    let observer = try ValueObserver("status", server: server)
    let alice = RemoteClient("alice", server: server)
    let status = try alice.node("status")
    try alice.wait { queue, then in status.set(["state": "online"], queue: queue, then: then) }
    try alice.wait { queue, then in
      try! alice.node("status/state").set(
        "offline", at: .onDisconnection, queue: queue, then: then)
    }
    try alice.wait { queue, then in
      try! alice.node("status/once").set(true, at: .nextDisconnection, queue: queue, then: then)
    }
    server.server.closeStreams()
    let first = observer.values.wait { $0.last == #"{"once":true,"state":"offline"}"# }
    #expect(first.last == #"{"once":true,"state":"offline"}"#, "\(first)")
    // Back online (the client reconnects by itself and opens its session again: its only
    // stream), the every-disconnection write is still registered without being sent again; the
    // once write ran and is gone.
    let states = alice.states.wait { $0.count { $0 != .disconnected } == 2 }
    #expect(states.count { $0 != .disconnected } == 2, "\(states)")
    try alice.wait { queue, then in status.set(["state": "online"], queue: queue, then: then) }
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    server.server.closeStreams()
    let second = observer.values.wait { $0.last == #"{"state":"offline"}"# }
    #expect(
      second.suffix(2) == [#"{"state":"online"}"#, #"{"state":"offline"}"#], "\(second)")
  }

  @Test func operationsRunInTheClientsNamespace() throws {
    let server = try TestDatabaseServer()
    let alice = RemoteClient("alice", server: server, namespace: "staging")
    try alice.wait { queue, then in
      try! alice.node("presence/alice").set(
        false, at: .nextDisconnection, queue: queue, then: then)
    }
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    alice.application.datasyncService.isConnectionEnabled = false
    #expect(server.server.waitForOpenStreams(atMost: 0))
    let staging = try server.server.database(for: Namespace("staging"))
    #expect(staging.value(at: try DatasyncPath(parsing: "presence/alice")) == .bool(false))
    #expect(try server.server.database().value(at: DatasyncPath(parsing: "presence")) == .null)
  }

  @Test func cancelledOperationsDoNotRunAndOrderWithWritesIsKept() throws {
    let server = try TestDatabaseServer()
    let observer = try ValueObserver("room", server: server)
    let alice = RemoteClient("alice", server: server)
    let queue = DispatchQueue(label: "test.answers")
    let answers = Recorder<String>()
    let record: @Sendable (String) -> (WebcomResult<Void>) -> Void = { name in
      { result in answers.append((try? result.get()) == nil ? "\(name) failed" : name) }
    }
    // Made at once, without waiting: the pipeline keeps their order.
    try alice.node("room/a").set(
      "gone", at: .nextDisconnection, queue: queue, then: record("register a"))
    try alice.node("room/a").set("here", queue: queue, then: record("set a"))
    try alice.node("room/a").cancelDisconnectionOperations(queue: queue, then: record("cancel a"))
    try alice.node("room/b").set(
      "gone", at: .nextDisconnection, queue: queue, then: record("register b"))
    try alice.node("room/c").set("here", queue: queue, then: record("set c"))
    #expect(
      answers.wait(for: 5) == ["register a", "set a", "cancel a", "register b", "set c"])
    alice.application.datasyncService.isConnectionEnabled = false
    let values = observer.values.wait { $0.last?.contains(#""b":"gone""#) == true }
    #expect(values.last == #"{"a":"here","b":"gone","c":"here"}"#, "\(values)")
  }

  @Test func aRegistrationOrderedBetweenWritesSeesTheDataTheyLeave() throws {
    let rules = try DatasyncRules(
      json: #"""
        {"rules": {".read": true, "open": {".write": true},
          "members": {"$m": {".write": "root.child('open').val() == true"}}}}
        """#)
    let server = try TestDatabaseServer(rules: rules)
    let alice = RemoteClient("alice", server: server)
    let queue = DispatchQueue(label: "test.answers")
    let answers = Recorder<Bool>()
    let record: @Sendable (WebcomResult<Void>) -> Void = { answers.append((try? $0.get()) != nil) }
    // Registered after the write that opens the room and before the one that closes it: the
    // server checks it between them, so it is granted.
    try alice.node("open").set(true, queue: queue, then: record)
    try alice.node("members/alice").set(
      false, at: .nextDisconnection, queue: queue, then: record)
    try alice.node("open").set(false, queue: queue, then: record)
    #expect(answers.wait(for: 3) == [true, true, true])
  }

  @Test func aRegistrationTheRulesDenyFailsWithTheServersMessageAndNeverRuns() throws {
    let rules = try DatasyncRules(
      json: #"{"rules": {".read": true, "$top": {".write": "$top != 'locked'"}}}"#)
    let server = try TestDatabaseServer(rules: rules)
    let alice = RemoteClient("alice", server: server)
    let refused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("locked/flag").set(true, at: .onDisconnection, queue: queue, then: then)
      }
    }
    #expect(refused?.code == .permissionDenied)
    #expect(refused?.message.contains("/locked/flag") == true, "\(String(describing: refused))")
    try alice.wait { queue, then in
      try! alice.node("free/flag").set(true, at: .nextDisconnection, queue: queue, then: then)
    }
    #expect(server.server.waitForOpenStreams(atLeast: 1))
    alice.application.datasyncService.isConnectionEnabled = false
    #expect(server.server.waitForOpenStreams(atMost: 0))
    let database = try server.server.database()
    #expect(database.value(at: try DatasyncPath(parsing: "free/flag")) == .bool(true))
    #expect(database.value(at: try DatasyncPath(parsing: "locked")) == .null)
  }
}

/// A service without the session extension: disconnection operations fail with a clear error
/// naming the missing capability and how the service answered, and nothing else breaks.
@Suite(.timeLimit(.minutes(1))) struct RemoteMissingSessionTests {
  /// A REST service whose session path answers as `sessionAnswer` says (`"404"`, `"405"`:
  /// that status; `"json"`: a plain JSON answer; `"put"`: an event stream starting with a
  /// `put`) at `sessionPath`; everything else is answered `200` with `{}`. Records the paths of
  /// session requests.
  final class ServiceWithoutSessions {
    let http: HTTPServer
    let sessionRequests = Recorder<String>()

    init(sessionAnswer: String, sessionPath: String = "/.session.json") throws {
      let sessionRequests = self.sessionRequests
      http = try startServer { request, responder in
        guard request.path == sessionPath else {
          responder.respond(HTTPResponse(body: "{}"))
          return
        }
        sessionRequests.append("\(request.method) \(request.path)")
        switch sessionAnswer {
        case "json":
          responder.respond(HTTPResponse(headers: ["Content-Type": "application/json"], body: "{}"))
        case "put":
          let stream = try! responder.openEventStream()
          try? stream.send(event: "put", data: #"{"path":"/","data":null}"#)
        default:
          responder.respond(
            .jsonError(HTTPStatus(code: Int(sessionAnswer)!), message: "no such path"))
        }
      }
    }

    deinit { http.stop() }
  }

  @Test func theRefusalNamesTheSessionPathUnderTheBaseURL() throws {
    let service = try ServiceWithoutSessions(sessionAnswer: "put", sessionPath: "/db/.session.json")
    let alice = RemoteClient(url: URL(string: "http://127.0.0.1:\(service.http.port)/db")!)
    let refused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("presence/alice").set(
          false, at: .onDisconnection, queue: queue, then: then)
      }
    }
    let message = refused?.message ?? ""
    #expect(message.contains("the first event of GET /db/.session.json was put"), "\(message)")
    #expect(service.sessionRequests.all == ["GET /db/.session.json"])
  }

  @Test(arguments: [
    ("404", "answered HTTP 404: no such path"),
    ("405", "answered HTTP 405: no such path"),
    ("json", "answered with application/json, not an event stream"),
    ("put", "the first event of GET /.session.json was put, not connected"),
  ])
  func disconnectionOperationsFailNamingTheMissingExtension(answer: String, reason: String)
    throws
  {
    let service = try ServiceWithoutSessions(sessionAnswer: answer)
    let url = URL(string: "http://127.0.0.1:\(service.http.port)")!
    let alice = RemoteClient(url: url)
    let refused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("presence/alice").set(
          false, at: .onDisconnection, queue: queue, then: then)
      }
    }
    #expect(refused?.code == .invalidArgument)
    let message = refused?.message ?? ""
    #expect(
      message.hasPrefix(
        "cannot register a disconnection write at /presence/alice: the server at "
          + "\(url.absoluteString) does not offer the session extension"), "\(message)")
    #expect(message.contains(reason), "\(message)")
    #expect(message.hasSuffix("which disconnection operations need"), "\(message)")
    // The absence is remembered: a cancellation is refused without asking again, and the
    // pipeline goes on.
    let cancelRefused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("presence").cancelDisconnectionOperations(queue: queue, then: then)
      }
    }
    #expect(
      cancelRefused?.message.hasPrefix("cannot cancel the disconnection writes at /presence:")
        == true)
    try alice.wait { queue, then in
      try! alice.node("presence/alice").set(true, queue: queue, then: then)
    }
    let incrementRefused = #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("count").increment(from: 10, by: 1, queue: queue, then: then)
      }
    }
    #expect(incrementRefused?.code == .invalidArgument)
    #expect(
      incrementRefused?.message.hasPrefix(
        "cannot increment /count from 10.0: the server at \(url.absoluteString) does not offer "
          + "the session extension") == true, "\(incrementRefused?.message ?? "")")
    #expect(service.sessionRequests.all == ["GET /.session.json"])
    // After a disconnection the service is asked again.
    alice.application.datasyncService.isConnectionEnabled = false
    alice.application.datasyncService.isConnectionEnabled = true
    #expect(throws: WebcomError.self) {
      try alice.wait { queue, then in
        try! alice.node("presence/alice").set(
          false, at: .nextDisconnection, queue: queue, then: then)
      }
    }
    #expect(service.sessionRequests.all == ["GET /.session.json", "GET /.session.json"])
  }
}

/// A registration whose session ended while it was posted.
@Suite(.timeLimit(.minutes(1))) struct RemoteSessionLossTests {
  /// A minimal session service: it holds the first `POST` unanswered and cuts the session's
  /// stream, then answers that `POST` (`204`) once the client opened its next session; later
  /// `POST`s are answered `204` and acknowledged on the current stream.
  final class CuttingSessionService: @unchecked Sendable {
    /// Protects everything below.
    private let lock = NSLock()
    private var stream: HTTPEventStream?
    private var heldPost: HTTPResponder?
    private var postCount = 0
    let sessionGets = Recorder<Int>()
    private(set) var http: HTTPServer!

    init() throws {
      http = try startServer { [unowned self] request, responder in
        guard request.path == "/.session.json" else {
          responder.respond(HTTPResponse(body: "{}"))
          return
        }
        if request.method == "GET" { openSession(responder) } else { post(request, responder) }
      }
    }

    private func openSession(_ responder: HTTPResponder) {
      let stream = try! responder.openEventStream()
      try? stream.send(event: "connected", data: #"{"client":"stub","timestamp":0}"#)
      let held = lock.withLock {
        self.stream = stream
        defer { heldPost = nil }
        return heldPost
      }
      held?.respond(HTTPResponse(status: .noContent))
      sessionGets.append(1)
    }

    private func post(_ request: HTTPRequest, _ responder: HTTPResponder) {
      let (isFirst, stream) = lock.withLock {
        defer { postCount += 1 }
        if postCount == 0 { heldPost = responder }
        return (postCount == 0, self.stream)
      }
      if isFirst {
        stream?.close()
        return
      }
      responder.respond(HTTPResponse(status: .noContent))
      let requests = try! JSONSerialization.jsonObject(with: Data(request.body)) as! [[String: Any]]
      for case let identifier as Int in requests.map({ $0["id"] }) {
        try? stream?.send(event: "ack", data: #"{"id":\#(identifier)}"#)
      }
    }

    deinit { http.stop() }
  }

  @Test func aRequestPostedOnASessionThatEndedIsPostedAgainOnTheNextOne() throws {
    let service = try CuttingSessionService()
    let alice = RemoteClient(url: URL(string: "http://127.0.0.1:\(service.http.port)")!)
    try alice.wait { queue, then in
      try! alice.node("presence/alice").set(false, at: .onDisconnection, queue: queue, then: then)
    }
    #expect(service.sessionGets.all.count == 2)
    let states = alice.states.wait { $0.count { $0 != .disconnected } >= 2 }
    #expect(states.count { $0 != .disconnected } == 2, "\(states)")
  }
}
