import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// A remote back end facing a server that breaks the protocol: each misbehaviour ends in a
/// reconnection or a clear error, never a crash, a hang or a stale view.
@Suite(.timeLimit(.minutes(1))) struct RemoteFailureTests {
  /// How a scripted server answers the `n`th streaming read (from 0).
  enum StreamAnswer: Sendable {
    /// A well-formed stream whose first event is the value.
    case value(String)
    /// The value, then these events.
    case valueThen([(name: String, data: String)])
    /// An HTTP error.
    case status(Int)
    /// A plain JSON answer, as from a server that ignores `Accept: text/event-stream`.
    case json(String)
  }

  /// What a scripted server counted and the responders it keeps unanswered.
  final class ScriptedRequests: @unchecked Sendable {
    /// Protects `counts` and `held`.
    private let lock = NSLock()
    private var counts: [String: Int] = [:]
    /// Responders kept unanswered (a server that never answers).
    private var held: [HTTPResponder] = []

    /// Counts a request of a kind; returns how many of that kind came before it.
    func next(_ kind: String) -> Int {
      lock.withLock {
        defer { counts[kind, default: 0] += 1 }
        return counts[kind, default: 0]
      }
    }

    func hold(_ responder: HTTPResponder) { lock.withLock { held.append(responder) } }

    func count(_ kind: String) -> Int { lock.withLock { counts[kind, default: 0] } }
  }

  /// A server that answers checks and reads `{}`, and streams as `script` says; counts the
  /// requests it got by kind.
  final class ScriptedServer: Sendable {
    let http: HTTPServer
    private let requests = ScriptedRequests()

    init(
      status: @escaping @Sendable (_ method: String, _ number: Int) -> Int? = { _, _ in 200 },
      script: @escaping @Sendable (Int) -> StreamAnswer
    ) throws {
      let requests = self.requests
      http = try startServer { request, responder in
        let isStream = request.headers.values(for: "Accept").contains {
          $0.contains("event-stream")
        }
        let number = requests.next(isStream ? "stream" : request.method)
        if !isStream {
          guard let status = status(request.method, number) else {
            requests.hold(responder)
            return
          }
          responder.respond(HTTPResponse(status: HTTPStatus(code: status), body: "{}"))
          return
        }
        switch script(number) {
        case .status(let status):
          responder.respond(.jsonError(HTTPStatus(code: status), message: "scripted refusal"))
        case .json(let json):
          responder.respond(
            HTTPResponse(headers: ["Content-Type": "application/json"], body: json))
        case .value(let json):
          let stream = try! responder.openEventStream()
          try? stream.send(event: "put", data: #"{"path":"/","data":\#(json)}"#)
        case .valueThen(let events):
          let stream = try! responder.openEventStream()
          try? stream.send(event: "put", data: #"{"path":"/","data":{"a":1}}"#)
          for event in events {
            if event.name == "close" {
              stream.close()
            } else {
              try? stream.send(event: event.name, data: event.data)
            }
          }
        }
      }
    }

    func count(_ kind: String) -> Int { requests.count(kind) }

    deinit { http.stop() }
  }

  private func client(of server: ScriptedServer, options: RemoteOptions = fastRemoteOptions)
    -> (RemoteClient, Recorder<String>, Recorder<DatasyncSubscriptionCompletion>)
  {
    let url = URL(string: "http://127.0.0.1:\(server.http.port)")!
    let client = RemoteClient(url: url, options: options)
    let values = Recorder<String>()
    let completions = Recorder<DatasyncSubscriptionCompletion>()
    try! client.node("room").subscribe(
      to: .valueChange, queue: DispatchQueue(label: "test.values"),
      onEvent: { values.append($0.value.json) }, onCompletion: completions.append)
    return (client, values, completions)
  }

  @Test(arguments: [
    ("put", #"{"path":"/","data":{"a":}"#),
    ("put", #"{"path":"/a"}"#),
    ("rewind", "null"),
    ("close", ""),
  ])
  func aBrokenStreamReconnectsAndResynchronises(name: String, data: String) throws {
    let server = try ScriptedServer { number in
      number == 0 ? .valueThen([(name, data)]) : .value(#"{"a":2}"#)
    }
    let (client, values, _) = client(of: server)
    let seen = values.wait { $0.last == #"{"a":2}"# }
    #expect(seen == [#"{"a":1}"#, #"{"a":2}"#])
    #expect(client.states.wait(connected: true))
    #expect(client.states.connections == 2)
    #expect(server.count("stream") == 2)
  }

  @Test func aStreamRefusedForAccessEndsTheSubscriptionWithTheServersReason() throws {
    let server = try ScriptedServer { _ in .status(403) }
    let (client, values, completions) = client(of: server)
    defer { withExtendedLifetime(client) {} }
    guard case .revoked(let error)? = completions.wait(for: 1).first else {
      Issue.record("the subscription was not revoked: \(completions.all)")
      return
    }
    #expect(error.code == .permissionDenied)
    #expect(error.message.contains("HTTP 403") && error.message.contains("scripted refusal"))
    #expect(values.all.isEmpty)
  }

  @Test func aPlainAnswerToAStreamingReadEndsTheSubscriptionWithAClearError() throws {
    let server = try ScriptedServer { _ in .json(#"{"a":1}"#) }
    let (client, values, completions) = client(of: server)
    defer { withExtendedLifetime(client) {} }
    let error = completions.wait(for: 1).first?.error
    #expect(error?.code == .decodingFailed)
    #expect(
      error?.message.contains("not text/event-stream") == true, "\(String(describing: error))")
    #expect(values.all.isEmpty)
  }

  @Test(arguments: [500, 503])
  func aStreamFailingOnTheServersSideReconnects(status: Int) throws {
    let server = try ScriptedServer { number in
      number < 2 ? .status(status) : .value(#"{"a":3}"#)
    }
    let (client, values, completions) = client(of: server)
    #expect(values.wait { $0.last == #"{"a":3}"# } == [#"{"a":3}"#])
    #expect(client.states.connections == 3)
    #expect(completions.all.isEmpty)
  }

  @Test func aServerThatNeverAnswersIsCheckedAgainUntilItDoes() throws {
    let server = try ScriptedServer(
      status: { _, number in number < 2 ? nil : 200 }, script: { _ in .value("7") })
    let options = RemoteOptions(
      requestTimeout: 0.2, idleTimeout: 5,
      reconnection: RemoteReconnectionPolicy(initialDelay: 0.01, maximumDelay: 0.05))
    let (client, values, _) = client(of: server, options: options)
    #expect(values.wait { $0.last == "7" } == ["7"])
    #expect(server.count("GET") == 3)
    #expect(client.states.all.filter { $0 != .disconnected }.count == 1)
  }

  @Test func aSilentStreamCountsAsLostAfterTheIdleTimeout() throws {
    let server = try ScriptedServer { number in
      number == 0 ? .valueThen([]) : .value(#"{"a":4}"#)
    }
    // Long enough for the first stream's event to arrive on a loaded machine (with 0.3 s the
    // stream once counted as lost before its first event, which was then never seen).
    let options = RemoteOptions(
      requestTimeout: 5, idleTimeout: 1,
      reconnection: RemoteReconnectionPolicy(initialDelay: 0.01, maximumDelay: 0.05))
    let (client, values, _) = client(of: server, options: options)
    #expect(values.wait { $0.last == #"{"a":4}"# } == [#"{"a":1}"#, #"{"a":4}"#])
    #expect(client.states.connections == 2)
  }

  @Test func aWriteThatGotNoAnswerIsSentAgainAfterReconnection() throws {
    let server = try ScriptedServer(
      status: { method, number in method == "PUT" && number == 0 ? nil : 200 },
      script: { _ in .value("{}") })
    let options = RemoteOptions(
      requestTimeout: 0.3, idleTimeout: 5,
      reconnection: RemoteReconnectionPolicy(initialDelay: 0.01, maximumDelay: 0.05))
    let (client, _, _) = client(of: server, options: options)
    #expect(client.states.wait(connected: true))
    try client.wait { queue, then in
      try! client.node("room/a").set(1, queue: queue, then: then)
    }
    #expect(server.count("PUT") == 2)
    #expect(client.states.connections == 2)
  }
}
