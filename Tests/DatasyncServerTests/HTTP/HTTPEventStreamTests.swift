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
    let reasons = Recorder<HTTPEventStream.CloseReason>()

    init(
      _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
      initialEvent: String? = nil
    ) throws {
      let streams = streams
      let reasons = reasons
      server = try startServer(configure) { request, responder in
        do {
          let stream = try responder.openEventStream(headers: ["X-Stream": request.rawPath]) {
            reasons.append($0)
          }
          if let initialEvent { try stream.send(event: "put", data: initialEvent) }
          streams.append(stream)
        } catch {
          Issue.record("cannot open a stream: \(error)")
        }
      }
    }

    /// Connects a client that asks for a stream and has read its head.
    func connect(version: String = "1.1") throws -> TestHTTPClient {
      let client = try TestHTTPClient(port: server.port)
      try client.send("GET /events HTTP/\(version)\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
      let head = try client.readEventStreamHead()
      #expect(head.status == 200)
      #expect(head.header("Content-Type") == "text/event-stream")
      #expect(head.header("Cache-Control") == "no-cache")
      #expect(head.header("X-Stream") == "/events")
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

  @Test func aSlowReaderIsClosedWhileAnotherStreamKeepsFlowing() throws {
    let queueLimit = 64 << 10
    let fixture = try StreamServer { $0.eventStreamQueueLimit = queueLimit }
    let stalled = try fixture.connect()
    let reading = try fixture.connect()
    let streams = fixture.streams.wait(for: 2)
    try #require(streams.count == 2)
    // Which stream belongs to which client is not known: find the one whose client reads.
    let payload = String(repeating: "x", count: 4_096)
    let received = Recorder<Int>()
    let readerDone = Recorder<Bool>()
    Thread.detachNewThread {
      var count = 0
      while let event = try? reading.readEvent() {
        if event.data.hasPrefix(payload) { count += 1 }
        received.append(count)
      }
      readerDone.append(true)
    }
    var sentToReader = 0
    var overflowed: HTTPEventStream?
    var readerStream: HTTPEventStream?
    // Send the same events to both streams; the reader's side is paced by its reads (a window
    // of 8 events), the stalled side fills the kernel buffers, then its queue.
    for _ in 0..<20_000 where overflowed == nil {
      for stream in streams where stream !== overflowed {
        do {
          try stream.send(event: "put", data: payload)
        } catch {
          #expect(error.code == .disconnected)
          #expect(error.message.contains("too slow"))
          overflowed = stream
        }
      }
      sentToReader += 1
      received.wait(for: sentToReader - 8)
    }
    let slow = try #require(overflowed)
    readerStream = streams.first { $0 !== slow }
    #expect(fixture.reasons.wait(for: 1) == [.slowReader])
    #expect(!slow.isOpen)
    #expect(stalled.waitForClose())
    // The other stream never stalled: it still delivers, and has everything sent to it.
    let flowing = try #require(readerStream)
    for _ in 0..<50 {
      try flowing.send(event: "put", data: payload)
      sentToReader += 1
      received.wait(for: sentToReader - 8)
    }
    flowing.close()
    #expect(readerDone.wait(for: 1) == [true])
    #expect(received.all.last == sentToReader)
    #expect(slow.queuedByteCount == 0)
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
