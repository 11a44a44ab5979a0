import Datasync
import Foundation
import Testing

@testable import DatasyncServer

/// What the server answers by itself: malformed input, sizes beyond the limits, timeouts,
/// connections beyond the limit. Each such answer is a JSON error, then the connection closes;
/// the handler never sees the request.
@Suite struct HTTPServerLimitsTests {
  /// Sends `request` on a new connection and returns the answer, checking that the
  /// connection then closes.
  private func answer(to request: String, server: HTTPServer) throws -> TestResponse {
    let client = try TestHTTPClient(port: server.port)
    try client.send(request)
    let response = try client.readResponse()
    #expect(response.header("Connection") == "close", "\(request.debugDescription)")
    #expect(client.waitForClose(), "\(request.debugDescription)")
    return response
  }

  @Test func aBodyOverTheLimitIsAnswered413WithoutReachingTheHandler() throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer({ $0.maxRequestBodyBytes = 1_024 }, handler: echoHandler(log))
    let declared = try answer(
      to: "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1025\r\n\r\n", server: server)
    #expect(declared.status == 413)
    #expect(declared.bodyText.contains("1025"))
    let chunk = String(repeating: "a", count: 600)
    let chunked = try answer(
      to: "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + "258\r\n\(chunk)\r\n258\r\n\(chunk)\r\n0\r\n\r\n",
      server: server)
    #expect(chunked.status == 413)
    let exact = try TestHTTPClient(port: server.port)
    try exact.send(
      "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n"
        + String(repeating: "b", count: 1_024))
    #expect(try exact.readResponse().status == 200)
    #expect(log.all.count == 1)
  }

  @Test func anExpectContinueOverTheLimitGets413InsteadOf100() throws {
    let server = try startServer({ $0.maxRequestBodyBytes = 100 }, handler: echoHandler(Recorder()))
    let response = try answer(
      to: "PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n",
      server: server)
    #expect(response.status == 413)
  }

  @Test func headersBeyondTheLimitsAreAnswered431AndALongRequestLine414() throws {
    let server = try startServer(
      {
        $0.maxHeaderBytes = 2_048
        $0.maxHeaderCount = 10
      }, handler: echoHandler(Recorder()))
    let manyHeaders = (0..<11).map { "X-H\($0): v\r\n" }.joined()
    let tooMany = try answer(to: "GET / HTTP/1.1\r\nHost: x\r\n\(manyHeaders)\r\n", server: server)
    #expect(tooMany.status == 431)
    let large = "X-Large: " + String(repeating: "v", count: 2_100) + "\r\n"
    let tooLarge = try answer(to: "GET / HTTP/1.1\r\nHost: x\r\n\(large)\r\n", server: server)
    #expect(tooLarge.status == 431)
    let longTarget = "/" + String(repeating: "p", count: 2_100)
    let longLine = try answer(to: "GET \(longTarget) HTTP/1.1\r\nHost: x\r\n\r\n", server: server)
    #expect(longLine.status == 414)
    // A head that never ends is cut at the limit rather than buffered.
    let endless = try answer(
      to: "GET / HTTP/1.1\r\nHost: x\r\nX-Endless: " + String(repeating: "e", count: 3_000),
      server: server)
    #expect(endless.status == 431)
  }

  static let malformedRequests: [String] = [
    "GARBAGE\r\n\r\n",
    "GET /a HTTP/1.1 extra\r\nHost: x\r\n\r\n",
    "GET  /a HTTP/1.1\r\nHost: x\r\n\r\n",
    "G(T /a HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET a/b HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET * HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /a HTTP/1.x\r\nHost: x\r\n\r\n",
    "GET /a HTTP/11\r\nHost: x\r\n\r\n",
    "GET /a%zz HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /a%C3 HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /a?x=%G1 HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /a\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost x\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost : x\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost: x\r\nX-Bad: a\u{01}b\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost: x\r\nX-Bad: a\rb\r\n\r\n",
    "GET /a HTTP/1.1\r\n\r\n",
    "GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    "POST /a HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
      + "ffffffffffffffffff\r\n",
    "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nbad trailer\r\n\r\n",
  ]

  @Test(arguments: malformedRequests)
  func malformedInputIsAnswered400AndClosed(request: String) throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer(handler: echoHandler(log))
    let response = try answer(to: request, server: server)
    #expect(response.status == 400)
    #expect(response.header("Content-Type") == "application/json; charset=utf-8")
    #expect(response.bodyText.hasPrefix(#"{"error":""#))
    #expect(log.all.isEmpty)
  }

  @Test func unsupportedVersionsEncodingsAndExpectationsHaveTheirOwnStatus() throws {
    let server = try startServer(handler: echoHandler(Recorder()))
    #expect(try answer(to: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", server: server).status == 505)
    #expect(
      try answer(
        to: "POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        server: server
      ).status == 501)
    #expect(
      try answer(to: "PUT / HTTP/1.1\r\nHost: x\r\nExpect: magic\r\n\r\n", server: server).status
        == 417)
  }

  @Test func lenientFormsAreAccepted() throws {
    let log = Recorder<HTTPRequest>()
    let server = try startServer(handler: echoHandler(log))
    let client = try TestHTTPClient(port: server.port)
    // Empty lines before a request, bare LF line ends, OPTIONS *, a repeated equal length.
    try client.send("\r\n\r\nGET /lf HTTP/1.1\nHost: x\n\n")
    #expect(try client.readResponse().status == 200)
    try client.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 200)
    try client.send("PUT /cl HTTP/1.1\r\nHost: x\r\nContent-Length: 2, 2\r\n\r\nok")
    #expect(try client.readResponse().bodyText == "ok")
    #expect(log.all.map(\.path) == ["/lf", "*", "/cl"])
  }

  @Test func aStartedRequestThatStallsIsAnswered408() throws {
    let server = try startServer(
      { $0.readTimeout = .milliseconds(150) }, handler: echoHandler(Recorder()))
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHo")
    let response = try client.readResponse()
    #expect(response.status == 408)
    #expect(client.waitForClose())
    // A body that stops half-way times out too.
    let body = try TestHTTPClient(port: server.port)
    try body.send("PUT / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nhalf")
    #expect(try body.readResponse().status == 408)
  }

  @Test func anIdleConnectionIsClosed() throws {
    let server = try startServer(
      { $0.idleTimeout = .milliseconds(150) }, handler: echoHandler(Recorder()))
    let used = try TestHTTPClient(port: server.port)
    try used.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try used.readResponse().status == 200)
    #expect(used.waitForClose())
    let silent = try TestHTTPClient(port: server.port)
    #expect(silent.waitForClose())
  }

  @Test func connectionsBeyondTheLimitAreAnswered503() throws {
    let server = try startServer({ $0.maxConnections = 2 }, handler: echoHandler(Recorder()))
    var admitted: [TestHTTPClient] = []
    for _ in 0..<2 {
      let client = try TestHTTPClient(port: server.port)
      try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
      #expect(try client.readResponse().status == 200)
      admitted.append(client)
    }
    let refused = try TestHTTPClient(port: server.port)
    let response = try refused.readResponse()
    #expect(response.status == 503)
    #expect(response.bodyText.contains("limit of 2 connections"))
    #expect(refused.waitForClose())
    // Once the server saw a connection close, a new one is admitted.
    admitted.removeFirst().close()
    #expect(server.waitForOpenConnections(atMost: 1))
    let client = try TestHTTPClient(port: server.port)
    try client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    #expect(try client.readResponse().status == 200)
  }

  @Test func invalidLimitsAndAddressesAreRejected() throws {
    func expectInvalid(_ fragment: String, _ configuration: HTTPServer.Configuration) {
      let error = #expect(throws: WebcomError.self) {
        try HTTPServer(configuration: configuration) { _, _ in }
      }
      #expect(error?.code == .invalidArgument)
      #expect(error?.message.contains(fragment) == true, "\(String(describing: error))")
    }
    var configuration = HTTPServer.Configuration()
    configuration.maxConnections = 0
    expectInvalid("maxConnections", configuration)
    configuration = HTTPServer.Configuration()
    configuration.readTimeout = .zero
    expectInvalid("readTimeout", configuration)
    expectInvalid("70000", .init(port: 70_000))
    expectInvalid("no.such.host.invalid", .init(host: "no.such.host.invalid"))
    let first = try HTTPServer(configuration: .init(port: 0)) { _, _ in }
    expectInvalid("127.0.0.1:\(first.port)", .init(port: first.port))
  }
}
