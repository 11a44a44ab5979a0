import Foundation
import Testing

@testable import Datasync

@Suite struct JSONValueHostingTests {
  private func body(_ text: String) throws(WebcomError) -> JSONValue {
    try JSONValue.parsingRequestBody(Array(text.utf8))
  }

  @Test func requestBodiesAcceptBothServerValues() throws {
    let value = try body(#"{"at": {".sv": "timestamp"}, "n": {".sv": {"increment": 2}}}"#)
    #expect(value["n"].serverIncrementStep == .int(2))
    #expect(value.containsServerIncrements)
    #expect(value.containsServerValues)
    #expect(try body(#"{".sv": {"increment": -1.5}}"#).serverIncrementStep == .double(-1.5))
    // The node API's parser still refuses increments: only the back end resolves them.
    #expect(throws: WebcomError.self) {
      try JSONValue.fromJSONData(Data(#"{".sv": {"increment": 1}}"#.utf8))
    }
  }

  @Test func malformedServerValuesAreRefused() {
    for text in [
      #"{".sv": {"increment": "1"}}"#, #"{".sv": {"increment": 1, "x": 2}}"#,
      #"{".sv": "now"}"#, #"{".sv": {"increment": 1}, "other": 1}"#, #"{".sv": {"add": 1}}"#,
    ] {
      #expect(throws: WebcomError.self, "\(text)") { try body(text) }
    }
  }

  @Test func incrementsResolveAgainstTheCurrentValueAsHostedDatabasesDo() throws {
    let increment = try body(#"{".sv": {"increment": 5}}"#)
    #expect(try increment.resolvingServerIncrements(against: .int(10)) == .int(15))
    #expect(try increment.resolvingServerIncrements(against: .double(0.5)) == .double(5.5))
    #expect(try increment.resolvingServerIncrements(against: .null) == .int(5))
    #expect(try increment.resolvingServerIncrements(against: .string("x")) == .int(5))
    #expect(
      try increment.resolvingServerIncrements(against: .int(.max)) == .double(Double(Int64.max) + 5)
    )
    let fraction = try body(#"{".sv": {"increment": 0.25}}"#)
    #expect(try fraction.resolvingServerIncrements(against: .int(1)) == .double(1.25))
    let huge = try body(#"{".sv": {"increment": 1.7e308}}"#)
    #expect(throws: WebcomError.self) {
      try huge.resolvingServerIncrements(against: .double(1.7e308))
    }
    let nested = try body(#"{"a": {"b": {".sv": {"increment": 1}}, "c": 1}, "d": "x"}"#)
    let current = try jsonValue(#"{"a": {"b": 41, "c": 0}}"#)
    #expect(
      try nested.resolvingServerIncrements(against: current)
        == jsonValue(#"{"a": {"b": 42, "c": 1}, "d": "x"}"#))
  }

  @Test func theBackEndResolvesIncrementsWhenItAppliesAWrite() throws {
    let tree = try jsonValue(#"{"counters": {"a": 1}}"#)
    let set = WriteOperation.set(
      try datasyncPath("/counters/a"), try body(#"{".sv": {"increment": 2}}"#))
    let (afterSet, announcedSet, replaced) = try set.applyingAuthoritatively(to: tree)
    #expect(replaced == .int(1))
    #expect(afterSet == (try jsonValue(#"{"counters": {"a": 3}}"#)))
    guard case .set(_, let value) = announcedSet else {
      Issue.record("a set is announced as a set")
      return
    }
    #expect(value == .int(3))
    let merge = WriteOperation.merge(
      try datasyncPath("/counters"),
      try JSONValue.parsingMergeBody(Array(#"{"a": {".sv": {"increment": 10}}, "b/c": 1}"#.utf8)))
    let (afterMerge, _, replacedByMerge) = try merge.applyingAuthoritatively(to: tree)
    #expect(replacedByMerge == nil)
    #expect(afterMerge == (try jsonValue(#"{"counters": {"a": 11, "b": {"c": 1}}}"#)))
  }

  @Test func mergeBodiesKeepNullsAndPathsAndRefuseOverlaps() throws {
    let entries = try JSONValue.parsingMergeBody(
      Array(#"{"b": null, "a/x": 1, "a/y": {"z": true}, "b": 2}"#.utf8))
    #expect(entries.map(\.relativePath) == ["a/x", "a/y", "b"])
    #expect(entries.map(\.value) == [.int(1), try jsonValue(#"{"z": true}"#), .int(2)])
    let deletions = try JSONValue.parsingMergeBody(Array(#"{"gone": null}"#.utf8))
    #expect(deletions.first?.value == .null)
    #expect(
      String(decoding: MergeEntry.jsonBytes(of: deletions), as: UTF8.self) == #"{"gone":null}"#)
    for text in [
      #"{"a": 1, "a/b": 2}"#, #"{"a/": 1}"#, #"{"/a": 1}"#, #"{"a//b": 1}"#, #"{"a/../b": 1}"#,
      #"{"a.b": 1}"#, "[1]", "1", #"{"a": }"#, "",
    ] {
      #expect(throws: WebcomError.self, "\(text)") {
        try JSONValue.parsingMergeBody(Array(text.utf8))
      }
    }
  }

  @Test func shallowKeepsScalarsAndMarksObjects() throws {
    let value = try jsonValue(#"{"a": {"b": 1}, "c": 2, "d": "x", "e": [1, 2]}"#)
    #expect(value.shallow == (try jsonValue(#"{"a": true, "c": 2, "d": "x", "e": true}"#)))
    #expect(JSONValue.string("leaf").shallow == .string("leaf"))
    #expect(JSONValue.null.shallow == .null)
  }

  @Test func prettyTextIsIndentedWithSpacedColons() throws {
    let value = try jsonValue(#"{"a": {"b": 1}, "c": [true, null, "x"]}"#)
    let pretty = String(decoding: value.jsonBytes(pretty: true), as: UTF8.self)
    #expect(
      pretty == """
        {
          "a" : {
            "b" : 1
          },
          "c" : [
            true,
            null,
            "x"
          ]
        }
        """)
    #expect(try jsonValue(pretty) == value)
    #expect(String(decoding: JSONValue.int(3).jsonBytes(pretty: true), as: UTF8.self) == "3")
  }

  @Test func streamEventsCarryRelativePathsAndData() throws {
    let put = HostedEvent.put(path: "/a \"b\"", data: try jsonValue(#"{"x": 1}"#))
    #expect(put.name == "put")
    #expect(put.data == #"{"path":"/a \"b\"","data":{"x":1}}"#)
    #expect(HostedEvent.put(path: "/", data: .null).data == #"{"path":"/","data":null}"#)
    let entries = try JSONValue.parsingMergeBody(Array(#"{"x/y": 1, "z": null}"#.utf8))
    #expect(
      HostedEvent.patch(path: "/p", entries: entries).data
        == #"{"path":"/p","data":{"x/y":1,"z":null}}"#)
    #expect(HostedEvent.keepAlive.data == "null")
    #expect(HostedEvent.authRevoked.data == "credential is no longer valid")
    #expect(
      HostedEvent.cancel(WebcomError(.permissionDenied, "no \"way\"")).data == #""no \"way\"""#)
  }

  @Test func restPathsDoNotNavigate() throws {
    #expect(try DatasyncPath(restPath: "/a//b/").string == "/a/b")
    #expect(try DatasyncPath(restPath: "").isRoot)
    for path in ["/a/../b", "/./a", "/a.b", "/a$", "/a#", "/[x]"] {
      #expect(throws: WebcomError.self, "\(path)") { try DatasyncPath(restPath: path) }
    }
    let deep = String(repeating: "/k", count: 33)
    #expect(throws: WebcomError.self) { try DatasyncPath(restPath: deep) }
    let long = "/" + String(repeating: "x", count: 700) + "/" + String(repeating: "y", count: 100)
    #expect(throws: WebcomError.self) { try DatasyncPath(restPath: long) }
  }
}
