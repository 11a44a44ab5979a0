import Foundation
import Testing

@testable import Datasync

/// The back end applies a merge's locations together, announces to each listen the part of a
/// write inside it, and refuses writes over the limits of paths whoever sends them.
@Suite struct DatasyncDatabaseWritesTests {
  private static func path(_ string: String) throws -> DatasyncPath {
    try DatasyncPath(parsing: string)
  }

  private static func value(_ json: String) throws -> JSONValue {
    try JSONValue.fromJSONData(Data(json.utf8))
  }

  private static func merge(_ path: String, _ entries: [(String, JSONValue)]) throws
    -> WriteOperation
  {
    .merge(
      try Self.path(path),
      try MergeEntry.entries(from: entries.map { (key: WebcomKey($0.0), value: $0.1) }))
  }

  /// A short description of a change message: `set /path json` or `merge /path a/b=json …`.
  private static func describe(_ messages: [BackEndMessage]) -> [String] {
    messages.compactMap { message in
      guard case .changed(let operation) = message else { return nil }
      switch operation {
      case .set(let path, let value):
        return "set \(path) \(value.jsonString)"
      case .merge(let path, let entries):
        return "merge \(path) "
          + entries.map { "\($0.relativePath)=\($0.value.jsonString)" }.joined(separator: " ")
      default:
        return "other"
      }
    }
  }

  @Test func eachListenGetsThePartOfAMergeInsideIt() throws {
    let database = DatasyncDatabase()
    let writer = RawClient(database)
    writer.send(
      .write(
        1, .set(try Self.path("room"), try Self.value(#"{"a":{"b":0,"keep":1},"c":0,"z":9}"#))))
    var listeners: [(String, RawClient)] = []
    for path in ["room", "room/a", "room/a/b", "room/d/e", "room/z", "/", "room/a/keep"] {
      let client = RawClient(database)
      client.send(.listen(try Self.path(path)))
      _ = client.take()
      listeners.append((path, client))
    }
    _ = writer.take()
    writer.send(
      .write(2, try Self.merge("room", [("a/b", .int(1)), ("c", .int(2)), ("d/e/f", .int(3))])))
    let received = Dictionary(
      uniqueKeysWithValues: listeners.map { ($0.0, Self.describe($0.1.take())) })
    #expect(received["room"] == ["merge /room a/b=1 c=2 d/e/f=3"])
    #expect(received["/"] == ["merge /room a/b=1 c=2 d/e/f=3"])
    #expect(received["room/a"] == ["merge /room/a b=1"])
    #expect(received["room/a/b"] == ["set /room/a/b 1"])
    #expect(received["room/d/e"] == ["merge /room/d/e f=3"])
    #expect(received["room/z"] == [])
    #expect(received["room/a/keep"] == [])
    #expect(
      database.value(at: try Self.path("room"))
        == (try Self.value(#"{"a":{"b":1,"keep":1},"c":2,"d":{"e":{"f":3}},"z":9}"#)))
  }

  @Test func aClientListeningInsideAnotherListenGetsOneMessage() throws {
    let database = DatasyncDatabase()
    let writer = RawClient(database)
    let listener = RawClient(database)
    listener.send(.listen(try Self.path("room/a")))
    listener.send(.listen(try Self.path("room/a/b")))
    listener.send(.listen(try Self.path("room/c")))
    _ = listener.take()
    writer.send(.write(1, try Self.merge("room", [("a/b/x", .int(1)), ("c", .int(2))])))
    #expect(
      Set(Self.describe(listener.take())) == ["merge /room/a b/x=1", "set /room/c 2"])
  }

  @Test func writesOverTheLimitsAreRefusedWhoeverSendsThem() throws {
    let database = DatasyncDatabase()
    let client = RawClient(database)
    let deep = try Self.path((1...31).map { "k\($0)" }.joined(separator: "/"))
    let deeper = deep.child("k32").child("k33")
    let long = try Self.path(String(repeating: "p", count: 759))
    _ = client.take()
    let requests: [(WriteOperation, WebcomError.Code)] = [
      (.set(deep, try Self.value(#"{"a":{"b":1}}"#)), .invalidValue),
      (.set(deeper, .int(1)), .invalidPath),
      (.increment(deeper, start: 0, step: 1), .invalidPath),
      (
        .compareAndSet(deep, expected: .null, value: try Self.value(#"{"a":{"b":1}}"#)),
        .invalidValue
      ),
      (.set(long, try Self.value(#"{"abcdefgh":1}"#)), .invalidValue),
      (try Self.merge(deep.string, [("a/b", .int(1))]), .invalidPath),
      (try Self.merge(long.string, [("x", try Self.value(#"{"abcdefgh":1}"#))]), .invalidValue),
    ]
    for (index, (operation, code)) in requests.enumerated() {
      client.send(.write(UInt64(index), operation))
      client.send(.writeOnDisconnection(UInt64(100 + index), operation, repeating: false))
      let answers = client.take()
      #expect(answers.count == 2)
      for answer in answers {
        guard case .rejected(_, let error, _) = answer else {
          Issue.record("accepted \(operation)")
          continue
        }
        #expect(error.code == code, "\(error)")
      }
    }
    database.detach(ObjectIdentifier(client))
    #expect(database.value(at: .root) == .null)
  }
}
