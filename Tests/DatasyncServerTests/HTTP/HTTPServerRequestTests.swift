import Datasync
import Dispatch
import Foundation
import Testing

@testable import DatasyncServer

/// Requests and answers over real sockets: methods and bodies, keep-alive, pipelining, HEAD,
/// `100 Continue`, and the responder's rules, on both event pollers.
@Suite struct HTTPServerRequestTests {
  @Test func aGetRequestArrivesWithItsDecodedPathQueryAndHeaders() throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer(handler: echoHandler(log))
    let client = try TestHTTPClient(port: server.port)
    try client.send(
      "GET /rooms/caf%C3%A9.json?print=pretty&orderBy=%22%24key%22&a+b=c%2Bd&flag HTTP/1.1\r\n"
        + "Host: localhost\r\nX-Custom: some value \r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 200)
    #expect(response.header("Content-Length") == "0")
    #expect(response.header("X-Method") == "GET")
    let request = try #require(log.all.first)
    #expect(request.method == "GET")
    #expect(request.version == "HTTP/1.1")
    #expect(request.rawPath == "/rooms/caf%C3%A9.json")
    #expect(request.path == "/rooms/café.json")
    #expect(request.rawQuery == "print=pretty&orderBy=%22%24key%22&a+b=c%2Bd&flag")
    #expect(request.query("print") == "pretty")
    #expect(request.query("orderBy") == "\"$key\"")
    #expect(request.query("a b") == "c+d")
    #expect(request.query("flag") == "")
    #expect(request.query("missing") == nil)
    #expect(request.headers["x-custom"] == "some value")
    #expect(request.headers["HOST"] == "localhost")
    #expect(request.remoteAddress == "127.0.0.1")
    #expect(request.body.isEmpty)
  }

  @Test func aPutBodyIsReadByItsContentLength() throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer(handler: echoHandler(log))
    let client = try TestHTTPClient(port: server.port)
    let body = #"{"name":"Ada","tags":["a","b"]}"#
    try client.send(
      "PUT /users/ada.json HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        + body)
    let response = try client.readResponse()
    #expect(response.status == 200)
    #expect(response.bodyText == body)
    #expect(response.header("Content-Length") == "\(body.utf8.count)")
    #expect(log.all.first?.bodyText == body)
  }

  @Test func aChunkedBodyArrivesDechunkedEvenByteByByte() throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer(handler: echoHandler(log))
    let client = try TestHTTPClient(port: server.port)
    try client.send("POST /list.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
    for byte in "5;name=value\r\nhello\r\n7\r\n, world\r\n".utf8 {
      try client.send([byte])
    }
    try client.send("0\r\nX-Trailer: ignored\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 200)
    #expect(response.bodyText == "hello, world")
    // The connection stays usable after a chunked request.
    try client.send("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 200)
    #expect(log.all.map(\.rawPath) == ["/list.json", "/next"])
  }

  @Test(arguments: [EventPollerKind.epoll, .poll])
  func keepAliveServesSeveralRequestsThenConnectionCloseEndsIt(poller: EventPollerKind) throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer({ $0.pollerKind = poller }, handler: echoHandler(log))
    let client = try TestHTTPClient(port: server.port)
    for index in 0..<5 {
      try client.send(
        "PUT /item/\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\n\r\n\(index)")
      let response = try client.readResponse()
      #expect(response.status == 200)
      #expect(response.bodyText == "\(index)")
      #expect(response.header("Connection") == nil)
    }
    try client.send("GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    let last = try client.readResponse()
    #expect(last.status == 200)
    #expect(last.header("Connection") == "close")
    #expect(client.waitForClose())
    #expect(log.all.count == 6)
  }

  @Test func http10ClosesByDefaultAndKeepsAliveWhenAsked() throws {
    let server = try startServer(handler: echoHandler(Recorder()))
    let plain = try TestHTTPClient(port: server.port)
    try plain.send("GET /a HTTP/1.0\r\n\r\n")
    let response = try plain.readResponse()
    #expect(response.status == 200)
    #expect(response.header("Connection") == "close")
    #expect(plain.waitForClose())

    let kept = try TestHTTPClient(port: server.port)
    for _ in 0..<2 {
      try kept.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
      let response = try kept.readResponse()
      #expect(response.status == 200)
      #expect(response.header("Connection") == "keep-alive")
    }
  }

  @Test(arguments: [EventPollerKind.epoll, .poll])
  func pipelinedRequestsAreHandledOneAtATimeAndAnsweredInOrder(poller: EventPollerKind) throws {
    let outstanding = Recorder<Int>()
    let state = PipelineState()
    let handler: @Sendable (HTTPRequest, HTTPResponder) -> Void = { request, responder in
      outstanding.append(state.begin())
      // Answer later, from another thread.
      DispatchQueue.global().async {
        state.end()
        responder.respond(HTTPResponse(body: request.rawPath + ":" + request.bodyText))
      }
    }
    let server = try startServer({ $0.pollerKind = poller }, handler: handler)
    let client = try TestHTTPClient(port: server.port)
    var batch = ""
    for index in 0..<20 {
      batch +=
        index.isMultiple(of: 3)
        ? "PUT /p\(index) HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nb\(index % 10)"
        : "GET /p\(index) HTTP/1.1\r\nHost: x\r\n\r\n"
    }
    try client.send(batch)
    for index in 0..<20 {
      let response = try client.readResponse()
      #expect(
        response.bodyText == "/p\(index):" + (index.isMultiple(of: 3) ? "b\(index % 10)" : ""))
    }
    #expect(outstanding.all.count == 20)
    #expect(outstanding.all.allSatisfy { $0 == 1 })
  }

  @Test func aHeadAnswerHasTheLengthButNoBody() throws {
    let server = try startServer { request, responder in
      responder.respond(HTTPResponse(body: "hello"))
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("HEAD /x HTTP/1.1\r\nHost: x\r\n\r\n")
    let head = try client.readResponse(toHead: true)
    #expect(head.status == 200)
    #expect(head.header("Content-Length") == "5")
    // Had a body been sent, it would be read as the next status line.
    try client.send("GET /x HTTP/1.1\r\nHost: x\r\n\r\n")
    let next = try client.readResponse()
    #expect(next.status == 200)
    #expect(next.bodyText == "hello")
  }

  @Test func noContentHasNoContentLengthAndKeepsTheConnection() throws {
    let server = try startServer { _, responder in
      responder.respond(HTTPResponse(status: .noContent, body: "dropped"))
    }
    let client = try TestHTTPClient(port: server.port)
    for _ in 0..<2 {
      try client.send("DELETE /x HTTP/1.1\r\nHost: x\r\n\r\n")
      let response = try client.readResponse()
      #expect(response.status == 204)
      #expect(response.header("Content-Length") == nil)
    }
  }

  @Test func expectContinueGetsA100BeforeTheBodyIsSent() throws {
    let server = try startServer(handler: echoHandler(Recorder()))
    let client = try TestHTTPClient(port: server.port)
    try client.send(
      "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
    let interim = try client.readResponse()
    #expect(interim.status == 100)
    try client.send("hello")
    let response = try client.readResponse()
    #expect(response.status == 200)
    #expect(response.bodyText == "hello")
  }

  @Test func anAbsoluteFormTargetIsReducedToItsPath() throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer(handler: echoHandler(log))
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET http://example.com:80/a%20b?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
    #expect(try client.readResponse().status == 200)
    #expect(log.all.first?.path == "/a b")
    #expect(log.all.first?.query("x") == "1")
  }

  @Test func aResponderAnswersOnceFromAnyThread() throws {
    let outcomes = Recorder<String>()
    let server = try startServer { _, responder in
      Thread.detachNewThread {
        outcomes.append("first: \(responder.respond(HTTPResponse(body: "one")))")
        outcomes.append("second: \(responder.respond(HTTPResponse(body: "two")))")
        do throws(WebcomError) {
          _ = try responder.openEventStream()
          outcomes.append("stream: opened")
        } catch {
          outcomes.append("stream: \(error.code)")
        }
        outcomes.append("answered: \(responder.isAnswered)")
      }
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().bodyText == "one")
    #expect(
      outcomes.wait(for: 4) == [
        "first: true", "second: false", "stream: invalidArgument", "answered: true",
      ])
  }

  @Test func aResponderReleasedWithoutAnAnswerAnswers500() throws {
    let server = try startServer { _, _ in }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 500)
    #expect(response.bodyText == #"{"error":"the request handler did not answer"}"#)
    // The connection is still usable.
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 500)
  }

  @Test func aMalformedResponseHeaderIsAnswered500NamingIt() throws {
    let server = try startServer { request, responder in
      responder.respond(HTTPResponse(headers: ["X-Injected": "a\r\nSet-Cookie: b"], body: "x"))
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.status == 500)
    #expect(response.header("Set-Cookie") == nil)
    #expect(response.bodyText.contains("X-Injected"))
  }

  @Test func aResponseAskingToCloseEndsTheConnection() throws {
    let server = try startServer { _, responder in
      responder.respond(HTTPResponse(headers: ["Connection": "close"], body: "bye"))
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    let response = try client.readResponse()
    #expect(response.header("Connection") == "close")
    #expect(response.bodyText == "bye")
    #expect(client.waitForClose())
  }

  @Test func aClientThatLeavesDuringALargeAnswerDoesNotDisturbTheServer() throws {
    // Writing to a connection the peer has closed fails with EPIPE or a reset, never SIGPIPE.
    let large = [UInt8](repeating: 0x61, count: 8 << 20)
    let server = try startServer { request, responder in
      responder.respond(HTTPResponse(body: request.rawPath == "/large" ? large : [0x6F, 0x6B]))
    }
    for _ in 0..<3 {
      let leaving = try TestHTTPClient(port: server.port)
      try leaving.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(try leaving.readHead().status == 200)
      leaving.close()
    }
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET /small HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().bodyText == "ok")
  }

  @Test func aClientThatHalfClosesAfterItsRequestsStillGetsEveryAnswer() throws {
    let server = try startServer(handler: echoHandler(Recorder()))
    let client = try TestHTTPClient(port: server.port)
    try client.send(
      "GET /1 HTTP/1.1\r\nHost: x\r\n\r\nPUT /2 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nok")
    client.shutdownWrite()
    #expect(try client.readResponse().status == 200)
    #expect(try client.readResponse().bodyText == "ok")
    #expect(client.waitForClose())
  }
}

/// Counts the requests a handler holds at once.
private final class PipelineState: @unchecked Sendable {
  /// Protects `current`.
  private let lock = NSLock()
  private var current = 0

  func begin() -> Int {
    lock.withLock {
      current += 1
      return current
    }
  }

  func end() {
    lock.withLock { current -= 1 }
  }
}
