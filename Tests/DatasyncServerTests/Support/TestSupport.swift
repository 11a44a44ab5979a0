import DatasyncServer
import Foundation

/// Values recorded from any thread, with a bounded wait for a number of them.
final class Recorder<Value: Sendable>: @unchecked Sendable {
  /// Protects `values`; signalled on each append.
  private let condition = NSCondition()
  private var values: [Value] = []

  func append(_ value: Value) {
    condition.withLock {
      values.append(value)
      condition.broadcast()
    }
  }

  var all: [Value] { condition.withLock { values } }

  /// Waits until at least `count` values are recorded (at most `timeout` seconds); returns
  /// them.
  @discardableResult
  func wait(for count: Int, timeout: TimeInterval = 10) -> [Value] {
    wait(timeout: timeout) { $0.count >= count }
  }

  /// Waits (at most `timeout` seconds) until `predicate` holds; returns the values.
  @discardableResult
  func wait(timeout: TimeInterval = 10, until predicate: ([Value]) -> Bool) -> [Value] {
    let deadline = Date(timeIntervalSinceNow: timeout)
    return condition.withLock {
      while !predicate(values) && condition.wait(until: deadline) {}
      return values
    }
  }
}

/// Starts a server on 127.0.0.1, port 0, with the given limits and handler.
func startServer(
  _ configure: (inout HTTPServer.Configuration) -> Void = { _ in },
  handler: @escaping @Sendable (HTTPRequest, HTTPResponder) -> Void
) throws -> HTTPServer {
  var configuration = HTTPServer.Configuration(host: "127.0.0.1", port: 0)
  configure(&configuration)
  return try HTTPServer(configuration: configuration, handler: handler)
}

/// A handler that records each request and answers 200 with the request body.
func echoHandler(_ log: Recorder<HTTPRequest>) -> @Sendable (HTTPRequest, HTTPResponder) -> Void {
  { request, responder in
    log.append(request)
    responder.respond(
      HTTPResponse(
        headers: ["X-Method": request.method, "X-Path": request.rawPath], body: request.body))
  }
}
