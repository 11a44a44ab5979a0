import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// Malformed requests at every level get a 4xx and never disturb the server: it serves the next
/// request, and no data changed.
@Suite(.timeLimit(.minutes(1))) struct MalformedRequestTests {
  private func rawStatus(_ server: TestDatabaseServer, _ text: String) throws -> Int {
    let client = try TestHTTPClient(port: server.port)
    defer { client.close() }
    try client.send(text)
    return try client.readResponse().status
  }

  @Test func everyKindOfMalformedInputIsAnswered4xx() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/data.json", body: #"{"kept": 1}"#)
    let raw: [String] = [
      "GARBAGE\r\n\r\n",
      "GET /data.json HTTP/9.9\r\nHost: x\r\n\r\n",
      "GET  /data.json HTTP/1.1\r\n\r\n",
      "GET /data.json HTTP/1.1\r\nNo-Colon-Header\r\n\r\n",
      "GET /data.json HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: b\r\n", count: 200)
        + "\r\n",
      "PUT /data.json HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
      "PUT /data.json HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
      "PUT /data.json HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "GET /%ZZ.json HTTP/1.1\r\nHost: x\r\n\r\n",
      "GET /%C3.json HTTP/1.1\r\nHost: x\r\n\r\n",
    ]
    for text in raw {
      let status = try rawStatus(server, text)
      #expect((400..<500).contains(status) || status == 505, "\(text.prefix(60)): \(status)")
    }
    let requests: [(String, String, String?)] = [
      ("PUT", "/data.json", #"{"kept": "#),
      ("PUT", "/data.json", #"{"a": 1,}"#),
      ("PUT", "/data.json", "\u{FEFF}1"),
      ("PUT", "/data.json", #"{"a\u0000b": 1}"#),
      ("PUT", "/data.json", #"{"a/b": 1}"#),
      ("PUT", "/data.json", #"{"": 1}"#),
      ("PATCH", "/data.json", #"{"a": 1} {"b": 2}"#),
      ("PATCH", "/data.json", #"{"a/./b": 1}"#),
      ("POST", "/data.json", "nul"),
      ("PUT", "/da%23ta.json", "1"),
      ("PUT", "/data/" + String(repeating: "k", count: 800) + ".json", "1"),
      ("GET", "/data.json?orderBy=%22", nil),
      ("GET", "/data.json?ns=%2E%2E", nil),
    ]
    for (method, target, body) in requests {
      let response = try server.request(method, target, body: body)
      #expect(
        (400..<500).contains(response.status),
        "\(method) \(target) \(body ?? ""): \(response.status)")
      #expect(response.errorMessage != nil, "\(method) \(target): \(response.bodyText)")
    }
    let tooLarge = try TestDatabaseServer { $0.http.maxRequestBodyBytes = 1_000 }
    let large = try tooLarge.request(
      "PUT", "/a.json", body: "\"" + String(repeating: "x", count: 2_000) + "\"")
    #expect(large.status == 413)
    #expect(try server.request("GET", "/data.json").bodyText == #"{"kept":1}"#)
  }
}
