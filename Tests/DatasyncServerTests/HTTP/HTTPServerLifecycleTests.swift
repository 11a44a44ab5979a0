import Datasync
import Foundation
import Testing

@testable import DatasyncServer

/// Starting and stopping: what `stop()` does to open connections and streams, stopping from the
/// loop thread, and no descriptor or thread left behind. Serialized: the scale test holds a
/// thousand connections.
@Suite(.serialized) struct HTTPServerLifecycleTests {
  @Test func stopClosesEveryConnectionAndEndsEveryStream() throws {
    let reasons = Recorder<HTTPEventStream.CloseReason>()
    let held = Recorder<HTTPResponder>()
    let streams = Recorder<HTTPEventStream>()
    let server = try startServer { request, responder in
      switch request.rawPath {
      case "/stream":
        do {
          streams.append(try responder.openEventStream { reasons.append($0) })
        } catch {
          Issue.record("\(error)")
        }
      case "/held": held.append(responder)
      default: responder.respond(HTTPResponse(body: "ok"))
      }
    }
    let idle = try TestHTTPClient(port: server.port)
    try idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try idle.readResponse().status == 200)
    let streaming = try TestHTTPClient(port: server.port)
    try streaming.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try streaming.readEventStreamHead()
    let waiting = try TestHTTPClient(port: server.port)
    try waiting.send("GET /held HTTP/1.1\r\nHost: x\r\n\r\n")
    let partial = try TestHTTPClient(port: server.port)
    try partial.send("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\nsome")
    let responder = try #require(held.wait(for: 1).first)
    let stream = try #require(streams.wait(for: 1).first)

    server.stop()
    #expect(reasons.all == [.serverStopped])
    for client in [idle, streaming, waiting, partial] {
      #expect(client.waitForClose())
    }
    // Late answers are accepted and dropped; a stream refuses events; stop is idempotent.
    #expect(responder.respond(HTTPResponse(body: "too late")))
    #expect(throws: WebcomError.self) { try stream.send(data: "too late") }
    server.stop()
    #expect(throws: (any Error).self) { try TestHTTPClient(port: server.port) }
  }

  @Test func aStreamOpenedAfterTheServerStoppedEndsAtOnce() throws {
    let held = Recorder<HTTPResponder>()
    let server = try startServer { _, responder in held.append(responder) }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let responder = try #require(held.wait(for: 1).first)
    server.stop()
    let reasons = Recorder<HTTPEventStream.CloseReason>()
    let stream = try responder.openEventStream { reasons.append($0) }
    #expect(reasons.all == [.serverStopped])
    #expect(!stream.isOpen)
  }

  @Test func aHandlerCanStopItsOwnServer() throws {
    let box = LockedValue<HTTPServer?>(nil)
    let stopped = Recorder<Bool>()
    let server = try startServer { _, responder in
      responder.respond(HTTPResponse(body: "stopping"))
      box.withLock { $0 }?.stop()
      stopped.append(true)
    }
    box.withLock { $0 = server }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(stopped.wait(for: 1) == [true])
    #expect(client.waitForClose())
    server.stop()
    #expect(throws: (any Error).self) { try TestHTTPClient(port: server.port) }
  }

  @Test(arguments: [EventPollerKind.epoll, .poll])
  func startingAndStoppingManyServersLeavesNoDescriptorOrThread(poller: EventPollerKind) throws {
    for _ in 0..<50 { try exerciseServer(poller: poller) }
  }

  /// Starts a server, serves a request and a stream, stops it with both connections open, and
  /// expects every descriptor and the thread it held released.
  private func exerciseServer(poller: EventPollerKind) throws {
    let handler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
      if request.rawPath == "/stream" {
        _ = try? responder.openEventStream()
      } else {
        responder.respond(HTTPResponse(body: "ok"))
      }
    }
    let server = try startServer({ $0.pollerKind = poller }, handler: handler)
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 200)
    let streaming = try TestHTTPClient(port: server.port)
    try streaming.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
    _ = try streaming.readEventStreamHead()
    let resources = try #require(server.heldResources())
    #expect(resources.sockets.count == 3)
    let probe = HeldResourcesProbe(resources)
    server.stop()
    #expect(probe.leftovers() == [])
    #expect(client.waitForClose())
    #expect(streaming.waitForClose())
  }

  @Test func aThousandIdleStreamsDoNotKeepPlainRequestsWaiting() throws {
    let reasons = Recorder<HTTPEventStream.CloseReason>()
    let streams = Recorder<HTTPEventStream>()
    let server = try startServer { request, responder in
      if request.rawPath == "/stream" {
        do {
          let stream = try responder.openEventStream { reasons.append($0) }
          try stream.send(event: "put", data: "initial")
          streams.append(stream)
        } catch {
          Issue.record("\(error)")
        }
      } else {
        responder.respond(HTTPResponse(body: request.rawPath))
      }
    }
    var listeners: [TestHTTPClient] = []
    for _ in 0..<1_000 {
      let client = try TestHTTPClient(port: server.port)
      try client.send("GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
      listeners.append(client)
    }
    for client in listeners {
      _ = try client.readEventStreamHead()
      #expect(try client.readEvent()?.data == "initial")
    }
    #expect(streams.wait(for: 1_000).count == 1_000)
    // Plain requests are served while the streams stay open.
    let plain = try TestHTTPClient(port: server.port)
    for index in 0..<200 {
      try plain.send("GET /plain/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(try plain.readResponse().bodyText == "/plain/\(index)")
    }
    // Every stream still delivers.
    for stream in streams.all { try stream.send(event: "put", data: "broadcast") }
    for client in listeners { #expect(try client.readEvent()?.data == "broadcast") }
    server.stop()
    #expect(reasons.wait(for: 1_000).count == 1_000)
    #expect(Set(reasons.all) == [.serverStopped])
  }
}
