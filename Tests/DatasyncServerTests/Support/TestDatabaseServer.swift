import Datasync
import DatasyncServer
import Foundation

/// A database server on 127.0.0.1 (port 0) for one test, with a small REST client: each
/// request on its own connection.
final class TestDatabaseServer {
  let server: DatabaseServer
  /// The directory of the data files (removed when the test server is released), nil in memory.
  let directory: URL?

  /// Starts a server with the given rules and tokens (the admin token stays `owner`).
  init(
    rules: DatasyncRules = .open, tokens: [String: DatasyncAuthentication] = [:],
    files: Bool = false, _ configure: (inout DatabaseServer.Configuration) -> Void = { _ in }
  ) throws {
    var configuration = DatabaseServer.Configuration(host: "127.0.0.1", port: 0)
    configuration.rules = rules
    configuration.tokens = tokens
    if files {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("datasync-server-tests-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      configuration.dataPath = directory.appendingPathComponent("data.sqlite").path
      self.directory = directory
    } else {
      directory = nil
    }
    configure(&configuration)
    server = try DatabaseServer(configuration: configuration)
  }

  deinit {
    server.stop()
    if let directory { try? FileManager.default.removeItem(at: directory) }
  }

  var port: Int { server.port }

  /// Sends one request and reads its response.
  func request(
    _ method: String, _ target: String, body: String? = nil, headers: [String: String] = [:]
  ) throws -> TestResponse {
    let client = try TestHTTPClient(port: port)
    defer { client.close() }
    try client.send(Self.requestText(method, target, body: body, headers: headers))
    return try client.readResponse(toHead: method == "HEAD")
  }

  /// Opens a streaming read; returns the client, positioned after the response head.
  func openStream(_ target: String, headers: [String: String] = [:]) throws -> (
    client: TestHTTPClient, head: TestResponse
  ) {
    let client = try TestHTTPClient(port: port)
    var headers = headers
    headers["Accept"] = "text/event-stream"
    try client.send(Self.requestText("GET", target, body: nil, headers: headers))
    let head = try client.readEventStreamHead()
    return (client, head)
  }

  /// The text of a request.
  static func requestText(
    _ method: String, _ target: String, body: String?, headers: [String: String]
  ) -> String {
    var text = "\(method) \(target) HTTP/1.1\r\n"
    if headers["Host"] == nil { text += "Host: 127.0.0.1\r\n" }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if let body { text += "Content-Length: \(body.utf8.count)\r\n" }
    return text + "Connection: close\r\n\r\n" + (body ?? "")
  }
}

extension TestResponse {
  /// The `error` member of a JSON error body.
  var errorMessage: String? {
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    else { return nil }
    return object["error"] as? String
  }
}

/// Reads events until one satisfies `condition` (skipping keep-alives), or throws after
/// `limit` events.
func readEvent(
  from client: TestHTTPClient, limit: Int = 50, where condition: (TestEvent) -> Bool = { _ in true }
) throws -> TestEvent {
  for _ in 0..<limit {
    guard let event = try client.readEvent() else {
      throw TestClientError(description: "the stream ended")
    }
    if event.event == "keep-alive" && !condition(event) { continue }
    if condition(event) { return event }
  }
  throw TestClientError(description: "no matching event within \(limit) events")
}
