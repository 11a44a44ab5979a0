import DatasyncServer
import Foundation
import Testing

@testable import Datasync

@Suite(.timeLimit(.minutes(1))) struct RESTConditionalTests {
  @Test func aReadGivesTheEntityTagWhenAskedAndEqualDataHasEqualTags() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/a.json", body: #"{"x": 1, "y": [1, 2]}"#)
    let plain = try server.request("GET", "/a.json")
    #expect(plain.header("ETag") == nil)
    let tagged = try server.request("GET", "/a.json", headers: ["X-Firebase-ETag": "true"])
    let tag = try #require(tagged.header("ETag"))
    #expect(tagged.bodyText == plain.bodyText)
    _ = try server.request("PUT", "/b.json", body: #"{"y": [1, 2], "x": 1}"#)
    #expect(
      try server.request("GET", "/b.json", headers: ["X-Firebase-ETag": "true"]).header("ETag")
        == tag)
    let null = try server.request("GET", "/none.json", headers: ["X-Firebase-ETag": "true"])
    #expect(null.bodyText == "null" && null.header("ETag") != nil && null.header("ETag") != tag)
  }

  @Test func ifMatchWritesOnlyUnchangedData() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/votes.json", body: "10")
    let tag = try #require(
      server.request("GET", "/votes.json", headers: ["X-Firebase-ETag": "true"]).header("ETag"))
    let success = try server.request("PUT", "/votes.json", body: "11", headers: ["if-match": tag])
    #expect(success.status == 200 && success.bodyText == "11")
    let newTag = try #require(success.header("ETag"))
    #expect(newTag != tag)
    let stale = try server.request("PUT", "/votes.json", body: "12", headers: ["if-match": tag])
    #expect(stale.status == 412)
    #expect(stale.bodyText == "11")
    #expect(stale.header("ETag") == newTag)
    // The tag without quotes, as some clients send it.
    let unquoted = String(newTag.dropFirst().dropLast())
    #expect(
      try server.request("PUT", "/votes.json", body: "12", headers: ["if-match": unquoted]).status
        == 200)
    #expect(try server.request("GET", "/votes.json").bodyText == "12")
  }

  @Test func ifMatchOnNullCreatesAndDeleteIsConditionalToo() throws {
    let server = try TestDatabaseServer()
    let nullTag = try #require(
      server.request("GET", "/new.json", headers: ["X-Firebase-ETag": "true"]).header("ETag"))
    #expect(
      try server.request("PUT", "/new.json", body: #""made""#, headers: ["if-match": nullTag])
        .status == 200)
    #expect(
      try server.request("PUT", "/new.json", body: #""again""#, headers: ["if-match": nullTag])
        .status == 412)
    let tag = try #require(
      server.request("GET", "/new.json", headers: ["X-Firebase-ETag": "true"]).header("ETag"))
    #expect(try server.request("DELETE", "/new.json", headers: ["if-match": nullTag]).status == 412)
    #expect(try server.request("DELETE", "/new.json", headers: ["if-match": tag]).status == 200)
    #expect(try server.request("GET", "/new.json").bodyText == "null")
    #expect(
      try server.request("PATCH", "/new.json", body: "{}", headers: ["if-match": tag]).status == 400
    )
  }

  @Test func ifNoneMatchAnswersNotModified() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/a.json", body: "1")
    let tag = try #require(
      server.request("GET", "/a.json", headers: ["X-Firebase-ETag": "true"]).header("ETag"))
    let unchanged = try server.request("GET", "/a.json", headers: ["if-none-match": tag])
    #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("ETag") == tag)
    _ = try server.request("PUT", "/a.json", body: "2")
    let changed = try server.request("GET", "/a.json", headers: ["if-none-match": tag])
    #expect(changed.status == 200 && changed.bodyText == "2")
  }

  @Test func readModifyWriteLoopsFromFourThreadsCountExactly() async throws {
    let server = try TestDatabaseServer()
    let port = server.port
    let retries = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var retries = 0
          for _ in 0..<15 {
            guard
              let read = try? Self.request(
                port, "GET", "/count.json", headers: ["X-Firebase-ETag": "true"]),
              var tag = read.header("ETag")
            else { return -1_000 }
            var value = Int(read.bodyText) ?? 0
            while true {
              guard
                let write = try? Self.request(
                  port, "PUT", "/count.json", body: "\(value + 1)", headers: ["if-match": tag])
              else { return -1_000 }
              if write.status == 200 { break }
              guard write.status == 412, let current = write.header("ETag") else { return -1_000 }
              retries += 1
              tag = current
              value = Int(write.bodyText) ?? 0
            }
          }
          return retries
        }
      }
      return await group.reduce(0, +)
    }
    #expect(retries >= 0)
    #expect(try server.request("GET", "/count.json").bodyText == "60")
  }

  private static func request(
    _ port: Int, _ method: String, _ target: String, body: String? = nil, headers: [String: String]
  ) throws -> TestResponse {
    let client = try TestHTTPClient(port: port)
    defer { client.close() }
    try client.send(TestDatabaseServer.requestText(method, target, body: body, headers: headers))
    return try client.readResponse()
  }
}
