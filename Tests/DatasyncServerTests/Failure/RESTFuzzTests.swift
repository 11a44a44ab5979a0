import DatasyncServer
import Foundation
import Testing

@testable import Datasync

/// A bounded, seeded fuzz of the REST layer: random methods, paths, parameters, headers and
/// bodies built from the protocol's vocabulary and mutated. The server answers only with
/// statuses it documents (never 500), keeps serving, and its data stays readable JSON.
@Suite(.timeLimit(.minutes(2))) struct RESTFuzzTests {
  private static let keys = [
    "a", "b", "users", "0", "-1", "é", "a b", "x.y", "$k", "", "..", "%2F",
  ]
  private static let parameters = [
    "print=pretty", "print=silent", "print=x", "shallow=true", "shallow=1", "format=export",
    #"orderBy="$key""#, #"orderBy="$value""#, #"orderBy="a/b""#, "orderBy=a", #"orderBy="""#,
    "startAt=1", #"startAt="a""#, "endAt=null", "equalTo=true", "startAfter=[1]",
    "limitToFirst=2", "limitToLast=-3", "limitToFirst=x", "ns=chat", "ns=BAD", "auth=owner",
    "auth=nobody", "auth=",
  ]
  private static let bodies = [
    "1", "\"text\"", "true", "null", #"{"a": 1, "b": {"c": [1, 2, null]}}"#,
    #"{".sv": "timestamp"}"#, #"{".sv": {"increment": 2}}"#, #"{"a/b": 1, "c": null}"#,
    #"{"a": {".sv": {"increment": "x"}}}"#, "[" + String(repeating: "[", count: 35), "{", "",
    #"{"a": 1e400}"#, #"{"k.e.y": 1}"#,
  ]
  private static let methods = ["GET", "PUT", "POST", "PATCH", "DELETE", "HEAD", "OPTIONS", "BREW"]
  private static let allowedStatuses: Set<Int> = [200, 204, 304, 400, 401, 403, 404, 405, 412, 413]

  private static func randomRequest(using random: inout SeededRandom) -> (
    String, String, String?, [String: String]
  ) {
    let method = methods.randomElement(using: &random)!
    var path = ""
    for _ in 0..<Int.random(in: 0...4, using: &random) {
      path += "/" + keys.randomElement(using: &random)!
    }
    let suffix = Int.random(in: 0..<10, using: &random) == 0 ? "" : ".json"
    var query: [String] = []
    for _ in 0..<Int.random(in: 0...3, using: &random) {
      query.append(parameters.randomElement(using: &random)!)
    }
    let target =
      (path.isEmpty ? "/" : path) + suffix
      + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    var body: String? =
      method == "GET" || method == "DELETE" ? nil : bodies.randomElement(using: &random)!
    if var text = body, Bool.random(using: &random), !text.isEmpty {
      var bytes = Array(text.utf8)
      bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(
        in: 32...126, using: &random)
      text = String(decoding: bytes, as: UTF8.self)
      body = text
    }
    var headers: [String: String] = [:]
    if Int.random(in: 0..<4, using: &random) == 0 { headers["Authorization"] = "Bearer owner" }
    if Int.random(in: 0..<6, using: &random) == 0 { headers["if-match"] = "\"0000000000000000\"" }
    if Int.random(in: 0..<6, using: &random) == 0 { headers["X-Firebase-ETag"] = "true" }
    if Int.random(in: 0..<8, using: &random) == 0 {
      headers["X-HTTP-Method-Override"] = methods.randomElement(using: &random)!
    }
    return (method, target.replacingOccurrences(of: " ", with: "%20"), body, headers)
  }

  @Test(arguments: [UInt64(11), 12, 13])
  func randomRequestsGetDocumentedAnswersAndTheServerKeepsServing(seed: UInt64) throws {
    let server = try TestDatabaseServer(rules: .authenticated) { $0.maximumNamespaces = 3 }
    var random = SeededRandom(seed: seed)
    for round in 0..<300 {
      let (method, target, body, headers) = Self.randomRequest(using: &random)
      let response = try server.request(method, target, body: body, headers: headers)
      #expect(
        Self.allowedStatuses.contains(response.status)
          || (response.status == 503 && target.contains("ns=")),
        "round \(round): \(method) \(target) \(body ?? "") \(headers) → \(response.status) \(response.bodyText)"
      )
      // Errors carry {"error": …}; a 412 carries the current data instead.
      if response.status >= 400 && response.status != 412 && method != "HEAD" {
        #expect(response.errorMessage != nil, "round \(round): \(response.bodyText)")
      }
    }
    let whole = try server.request("GET", "/.json?auth=owner")
    #expect(whole.status == 200)
    #expect((try? JSONValue.parsingRequestBody(whole.body)) != nil)
  }
}
