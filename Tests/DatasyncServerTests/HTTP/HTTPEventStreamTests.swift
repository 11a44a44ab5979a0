import Datasync
import Foundation
import Testing

@testable import DatasyncServer

/// Server-Sent Events over real sockets: framing, incremental delivery, the end of a stream
/// from either side, the slow-reader bound and sending from many threads.
@Suite struct HTTPEventStreamTests {
  /// A server whose handler opens an event stream for every request and records it with the
  /// reasons its streams end.
  private final class StreamServer: Sendable {
    let server: HTTPServer
    let streams = Recorder<HTTPEventStream>()
    /// The path of each request, in the order of `streams`.
    let paths = Recorder<String>()
    let reasons = Recorder<HTTPEventStream.CloseReason>()
    /// Keeps `paths` and `streams` in the same order when handlers run at the same time.
    private let registration = NSLock()

    init(
      _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
      initialEvent: String? = nil
    ) throws {
      let streams = streams
      let paths = paths
      let reasons = reasons
      let registration = registration
      server = try startServer(configure) { request, responder in
        do {
          let stream = try responder.openEventStream(headers: ["X-Stream": request.rawPath]) {
            reasons.append($0)
          }
          if let initialEvent { try stream.send(event: "put", data: initialEvent) }
          registration.withLock {
            paths.append(request.rawPath)
            streams.append(stream)
          }
        } catch {
          Issue.record("cannot open a stream: \(error)")
        }
      }
    }

    /// Connects a client that asks for a stream and has read its head.
    func connect(path: String = "/events", version: String = "1.1") throws -> TestHTTPClient {
      let client = try TestHTTPClient(port: server.port)
      try client.send(
        "GET \(path) HTTP/\(version)\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
      let head = try client.readEventStreamHead()
      #expect(head.status == 200)
      #expect(head.header("Content-Type") == "text/event-stream")
      #expect(head.header("Cache-Control") == "no-cache")
      #expect(head.header("X-Stream") == path)
      #expect(head.header("Content-Length") == nil)
      return client
    }
  }

  @Test(arguments: [EventPollerKind.epoll, .poll])
  func eventsArriveOneByOneAsTheyAreSent(poller: EventPollerKind) throws {
    let fixture = try StreamServer { $0.pollerKind = poller }
    let client = try fixture.connect()
    let stream = try #require(fixture.streams.wait(for: 1).first)
    try stream.send(event: "put", data: #"{"path":"/","data":1}"#)
    #expect(
      try client.readEvent() == TestEvent(event: "put", dataLines: [#"{"path":"/","data":1}"#]))
    try stream.send(event: "patch", data: "line one\nline two\r\nline three\rend", id: "7")
    #expect(
      try client.readEvent()
        == TestEvent(
          event: "patch", id: "7", dataLines: ["line one", "line two", "line three", "end"]))
    try stream.sendComment("keep-alive")
    #expect(try client.readEvent() == TestEvent(comments: ["keep-alive"]))
    try stream.send(data: "")
    #expect(try client.readEvent() == TestEvent(dataLines: [""]))
    #expect(stream.isOpen)
  }

  @Test func closingAStreamDeliversWhatWasSentThenEndsTheBodyAndTheConnection() throws {
    let fixture = try StreamServer()
    let client = try fixture.connect()
    let stream = try #require(fixture.streams.wait(for: 1).first)
    for index in 0..<3 { try stream.send(event: "put", data: "\(index)") }
    stream.close()
    stream.close()
    #expect(!stream.isOpen)
    for index in 0..<3 { #expect(try client.readEvent()?.data == "\(index)") }
    #expect(try client.readEvent() == nil)
    #expect(client.streamEndedCleanly)
    #expect(client.waitForClose())
    #expect(fixture.reasons.wait(for: 1) == [.closedByOwner])
    let error = #expect(throws: WebcomError.self) { try stream.send(data: "late") }
    #expect(error?.code == .disconnected)
    #expect(error?.message.contains("closed by its owner") == true)
  }

  @Test func anHTTP10StreamIsDelimitedByTheEndOfTheConnection() throws {
    let fixture = try StreamServer()
    let client = try fixture.connect(version: "1.0")
    let stream = try #require(fixture.streams.wait(for: 1).first)
    try stream.send(event: "put", data: "plain")
    #expect(try client.readEvent()?.data == "plain")
    stream.close()
    #expect(try client.readEvent() == nil)
    #expect(!client.streamEndedCleanly)
  }

  @Test func aPeerThatGoesAwayEndsItsStream() throws {
    let fixture = try StreamServer(initialEvent: "hello")
    let client = try fixture.connect()
    #expect(try client.readEvent()?.data == "hello")
    client.close()
    #expect(fixture.reasons.wait(for: 1) == [.peerClosed])
    let stream = try #require(fixture.streams.all.first)
    #expect(!stream.isOpen)
    #expect(throws: WebcomError.self) { try stream.send(data: "nobody listens") }
  }

  @Test func invalidEventNamesAndIdsAreRejectedWithoutSendingAnything() throws {
    let fixture = try StreamServer()
    let client = try fixture.connect()
    let stream = try #require(fixture.streams.wait(for: 1).first)
    let badName = #expect(throws: WebcomError.self) {
      try stream.send(event: "put\nevent: forged", data: "x")
    }
    #expect(badName?.code == .invalidArgument)
    #expect(throws: WebcomError.self) { try stream.send(data: "x", id: "1\r2") }
    try stream.send(event: "put", data: "valid")
    #expect(try client.readEvent() == TestEvent(event: "put", dataLines: ["valid"]))
    #expect(stream.isOpen)
  }

  @Test func anEventLargerThanTheLimitIsDeliveredWhenNothingIsQueued() throws {
    let fixture = try StreamServer { $0.eventStreamQueueLimit = 64 << 10 }
    let client = try fixture.connect()
    let stream = try #require(fixture.streams.wait(for: 1).first)
    let payload = String(repeating: "y", count: 300_000)
    try stream.send(event: "put", data: payload)
    #expect(try client.readEvent()?.data == payload)
    try stream.send(event: "put", data: "after")
    #expect(try client.readEvent()?.data == "after")
    #expect(stream.isOpen)
  }

  @Test func aSlowReaderIsClosedWhileAnotherStreamKeepsFlowing() throws {
    let fixture = try StreamServer { $0.eventStreamQueueLimit = 64 << 10 }
    let stalledClient = try fixture.connect(path: "/stalled")
    let readingClient = try fixture.connect(path: "/reading")
    let streams = fixture.streams.wait(for: 2)
    try #require(streams.count == 2)
    let paths = fixture.paths.all
    let stalled = streams[try #require(paths.firstIndex(of: "/stalled"))]
    let reading = streams[try #require(paths.firstIndex(of: "/reading"))]
    let payload = String(repeating: "x", count: 4_096)
    let received = Recorder<Int>()
    let readerEnd = Recorder<String>()
    Thread.detachNewThread {
      var count = 0
      do {
        while let event = try readingClient.readEvent() {
          if event.data == payload { count += 1 }
          received.append(count)
        }
        readerEnd.append("end of stream")
      } catch {
        readerEnd.append("\(error)")
      }
    }
    // The reading stream is paced by its reader (at most 4 events ahead of what it parsed, however
    // long the reader takes: on a loaded machine its thread may wait seconds for a core); the
    // stalled one fills the kernel buffers, then its queue, and is closed. The queue counts the
    // bytes the loop took for the socket until it has written them: a loop thread preempted
    // between its write and that count can show the events it wrote (read since) as queued
    // beside those sent meanwhile, twice the pace, which must stay well under the limit.
    var sent = 0
    var stalledError: WebcomError?
    while stalledError == nil && sent < 20_000 {
      try reading.send(event: "put", data: payload)
      sent += 1
      do {
        try stalled.send(event: "put", data: payload)
      } catch {
        stalledError = error
      }
      received.wait(for: sent - 4, timeout: 120)
    }
    #expect(stalledError?.code == .disconnected)
    #expect(stalledError?.message.contains("too slow") == true)
    #expect(fixture.reasons.wait(for: 1) == [.slowReader])
    #expect(!stalled.isOpen)
    #expect(stalled.queuedByteCount == 0)
    #expect(stalledClient.waitForClose())
    // The other stream never stalled: it still delivers, and has everything sent to it.
    for _ in 0..<50 {
      try reading.send(event: "put", data: payload)
      sent += 1
      received.wait(for: sent - 4, timeout: 120)
    }
    reading.close()
    #expect(readerEnd.wait(for: 1) == ["end of stream"])
    #expect(received.all.last == sent)
  }

  @Test func manyThreadsSendingToOneStreamKeepEachThreadsOrder() throws {
    let fixture = try StreamServer()
    let client = try fixture.connect()
    let stream = try #require(fixture.streams.wait(for: 1).first)
    let threads = 8
    let perThread = 250
    for thread in 0..<threads {
      Thread.detachNewThread {
        for index in 0..<perThread {
          do {
            try stream.send(event: "t\(thread)", data: "\(index)")
          } catch {
            Issue.record("send failed: \(error)")
          }
        }
      }
    }
    var next = Array(repeating: 0, count: threads)
    for _ in 0..<(threads * perThread) {
      let event = try #require(try client.readEvent())
      let thread = try #require(event.event.flatMap { Int($0.dropFirst()) })
      #expect(event.data == "\(next[thread])")
      next[thread] += 1
    }
    #expect(next == Array(repeating: perThread, count: threads))
  }

  @Test func aStreamOpenedForAClosedConnectionEndsAtOnce() throws {
    let responders = Recorder<HTTPResponder>()
    let server = try startServer { _, responder in responders.append(responder) }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n")
    let responder = try #require(responders.wait(for: 1).first)
    client.close()
    // Whether the server has already seen the close or sees it after writing the head, the
    // stream ends because the peer went away.
    let reasons = Recorder<HTTPEventStream.CloseReason>()
    let stream = try responder.openEventStream { reasons.append($0) }
    #expect(reasons.wait(for: 1) == [.peerClosed])
    #expect(!stream.isOpen)
  }

  @Test func malformedStreamHeadersAreRejectedAndTheRequestStaysUnanswered() throws {
    let outcomes = Recorder<String>()
    let server = try startServer { _, responder in
      do throws(WebcomError) {
        _ = try responder.openEventStream(headers: ["Bad Name": "x"])
        outcomes.append("opened")
      } catch {
        outcomes.append("\(error.code)")
        responder.respond(HTTPResponse(status: .badRequest))
      }
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 400)
    #expect(outcomes.all == ["invalidArgument"])
  }

  @Test func aHeadRequestForAStreamGetsOnlyTheHead() throws {
    let fixture = try StreamServer()
    let client = try TestHTTPClient(port: fixture.server.port)
    try client.send("HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n")
    let head = try client.readHead()
    #expect(head.header("Content-Type") == "text/event-stream")
    #expect(head.header("Transfer-Encoding") == nil)
    #expect(try client.readUntilClose().isEmpty)
    #expect(fixture.reasons.wait(for: 1) == [.peerClosed])
  }
}
