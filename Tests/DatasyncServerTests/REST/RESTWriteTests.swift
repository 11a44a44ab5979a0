import DatasyncServer
import Foundation
import Testing

@testable import Datasync

@Suite(.timeLimit(.minutes(1))) struct RESTWriteTests {
  @Test func putReplacesAndEchoesTheValue() throws {
    let server = try TestDatabaseServer()
    let put = try server.request(
      "PUT", "/users/jack/name.json", body: #"{ "first": "Jack", "last": "Sparrow" }"#)
    #expect(put.status == 200)
    #expect(put.bodyText == #"{"first":"Jack","last":"Sparrow"}"#)
    let replaced = try server.request("PUT", "/users/jack/name.json", body: #"{"first": "Jack"}"#)
    #expect(replaced.bodyText == #"{"first":"Jack"}"#)
    #expect(try server.request("GET", "/users/jack/name.json").bodyText == #"{"first":"Jack"}"#)
    let silent = try server.request("PUT", "/users/jack/age.json?print=silent", body: "40")
    #expect(silent.status == 204 && silent.body.isEmpty)
    let pretty = try server.request("PUT", "/users/jack/tags.json?print=pretty", body: #"["a"]"#)
    #expect(pretty.bodyText == "[\n  \"a\"\n]")
    #expect(try server.request("PUT", "/users/jack/age.json", body: "null").bodyText == "null")
    #expect(
      try server.request("GET", "/users/jack.json").bodyText
        == #"{"name":{"first":"Jack"},"tags":["a"]}"#)
  }

  @Test func patchWritesChildrenAndPathsAtomically() throws {
    let server = try TestDatabaseServer()
    _ = try server.request(
      "PUT", "/users/jack.json", body: #"{"first": "Jack", "last": "Sparrow", "age": 40}"#)
    let patch = try server.request(
      "PATCH", "/users/jack.json", body: #"{"last": "Jones", "age": null}"#)
    #expect(patch.status == 200)
    #expect(patch.bodyText == #"{"age":null,"last":"Jones"}"#)
    #expect(
      try server.request("GET", "/users/jack.json").bodyText == #"{"first":"Jack","last":"Jones"}"#)
    let multi = try server.request(
      "PATCH", "/.json",
      body: #"{"users/jack/last": "Sparrow", "users/anne/first": "Anne", "count": 2}"#)
    #expect(multi.status == 200)
    #expect(
      try server.request("GET", "/.json").bodyText
        == #"{"count":2,"users":{"anne":{"first":"Anne"},"jack":{"first":"Jack","last":"Sparrow"}}}"#
    )
    // One invalid location refuses the whole merge.
    for body in [
      #"{"users/jack/last": "X", "users/b.d": 1}"#, #"{"users": 1, "users/jack": 2}"#,
      #"{"users/jack/last": "X", "bad": {"a/b": 1}}"#, "[1, 2]",
    ] {
      let refused = try server.request("PATCH", "/.json", body: body)
      #expect(refused.status == 400, "\(body): \(refused.bodyText)")
    }
    #expect(try server.request("GET", "/users/jack/last.json").bodyText == #""Sparrow""#)
  }

  @Test func postPushesAChildWithAnIncreasingKey() throws {
    let server = try TestDatabaseServer()
    var names: [String] = []
    for text in ["one", "two", "three"] {
      let response = try server.request("POST", "/messages.json", body: #"{"text": "\#(text)"}"#)
      #expect(response.status == 200)
      let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String]
      let name = try #require(object?["name"])
      #expect(name.count == 20 && WebcomKey(name).date != nil)
      names.append(name)
    }
    #expect(names == names.sorted { WebcomKey($0) < WebcomKey($1) })
    let list =
      try JSONSerialization.jsonObject(
        with: Data(server.request("GET", "/messages.json").body)) as? [String: [String: String]]
    #expect(names.map { list?[$0]?["text"] } == ["one", "two", "three"])
  }

  @Test func deleteRemovesAndAnswersNull() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/a.json", body: #"{"b": {"c": 1}, "d": 2}"#)
    let delete = try server.request("DELETE", "/a/b/c.json")
    #expect(delete.status == 200 && delete.bodyText == "null")
    #expect(try server.request("GET", "/a.json").bodyText == #"{"d":2}"#)
    #expect(try server.request("DELETE", "/a.json?print=silent").status == 204)
    #expect(try server.request("GET", "/a.json").bodyText == "null")
  }

  @Test func serverValuesAreResolvedByTheServer() throws {
    let server = try TestDatabaseServer()
    // Timestamps are milliseconds rounded to the nearest, as the server stores them.
    let before = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    let stamped = try server.request("PUT", "/stamp.json", body: #"{"at": {".sv": "timestamp"}}"#)
    let after = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    let object = try JSONSerialization.jsonObject(with: Data(stamped.body)) as? [String: Int64]
    let time = try #require(object?["at"])
    #expect(time >= before && time <= after)
    #expect(
      try server.request("PUT", "/n.json", body: #"{".sv": {"increment": 2}}"#).bodyText == "2")
    #expect(
      try server.request("PUT", "/n.json", body: #"{".sv": {"increment": 3}}"#).bodyText == "5")
    let patched = try server.request(
      "PATCH", "/.json",
      body: #"{"n": {".sv": {"increment": -1}}, "m/k": {".sv": {"increment": 0.5}}}"#)
    #expect(patched.bodyText == #"{"m/k":0.5,"n":4}"#)
    #expect(try server.request("PUT", "/bad.json", body: #"{".sv": "later"}"#).status == 400)
  }

  @Test func concurrentIncrementsAllCount() async throws {
    let server = try TestDatabaseServer()
    let port = server.port
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask {
          for _ in 0..<25 {
            let client = try? TestHTTPClient(port: port)
            try? client?.send(
              TestDatabaseServer.requestText(
                "PUT", "/counter.json?print=silent", body: #"{".sv": {"increment": 1}}"#,
                headers: [:]))
            _ = try? client?.readResponse()
            client?.close()
          }
        }
      }
    }
    #expect(try server.request("GET", "/counter.json").bodyText == "100")
  }

  @Test func methodOverrideTurnsAPostIntoAnotherMethod() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/a.json", body: #"{"x": 1, "y": 2}"#)
    let delete = try server.request(
      "POST", "/a/x.json", headers: ["X-HTTP-Method-Override": "DELETE"])
    #expect(delete.status == 200 && delete.bodyText == "null")
    let patch = try server.request(
      "POST", "/a.json", body: #"{"z": 3}"#, headers: ["X-HTTP-Method-Override": "PATCH"])
    #expect(patch.status == 200)
    #expect(try server.request("GET", "/a.json").bodyText == #"{"y":2,"z":3}"#)
    let onPut = try server.request(
      "PUT", "/a.json", body: "1", headers: ["X-HTTP-Method-Override": "DELETE"])
    #expect(onPut.status == 400)
    let unknown = try server.request(
      "POST", "/a.json", body: "1", headers: ["X-HTTP-Method-Override": "TRACE"])
    #expect(unknown.status == 405)
  }

  @Test func invalidDataIsRefusedAndNothingChanges() throws {
    let server = try TestDatabaseServer()
    _ = try server.request("PUT", "/a.json", body: #"{"kept": true}"#)
    let cases: [(String, String)] = [
      (#"{"kept": false, "bad.key": 1}"#, "bad.key"),
      (#"{"kept": false, "x": [1, nan]}"#, "malformed"),
      (#"{"kept": false"#, "malformed"),
      ("", "malformed"),
      (#"{"kept": 1e999}"#, "1e999"),
      (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "deeper"),
      (#"{"kept": "\ud800"}"#, "surrogate"),
    ]
    for (body, culprit) in cases {
      let response = try server.request("PUT", "/a.json", body: body)
      #expect(response.status == 400, "\(body)")
      #expect(response.errorMessage?.contains(culprit) == true, "\(body): \(response.bodyText)")
    }
    let deepPath = String(repeating: "/k", count: 30) + ".json"
    let overDeep = try server.request("PUT", deepPath, body: #"{"a": {"b": {"c": 1}}}"#)
    #expect(overDeep.status == 400 && overDeep.errorMessage?.contains("32") == true)
    #expect(try server.request("GET", "/a.json").bodyText == #"{"kept":true}"#)
  }
}
