import Testing

@testable import Datasync

@Suite struct RemoteStreamEventTests {
  private let location = DatasyncPath(validatedKeys: ["rooms", "a"])

  private func decode(_ name: String, _ data: String) throws -> RemoteStreamEvent {
    try RemoteStreamEvent(ServerSentEvent(name: name, data: data), at: location)
  }

  @Test func makesPathsAbsolute() throws {
    guard case .put(let path, let value) = try decode("put", #"{"path":"/","data":{"x":1}}"#)
    else {
      Issue.record("not a put")
      return
    }
    #expect(path == location)
    #expect(value == .object(JSONObject([("x", .int(1))])))
    guard case .put(let child, .null) = try decode("put", #"{"data":null,"path":"/m/n"}"#) else {
      Issue.record("not a put")
      return
    }
    #expect(child.string == "/rooms/a/m/n")
    guard
      case .patch(let patched, let entries) = try decode(
        "patch", #"{"path":"/m","data":{"x/y":2,"z":null}}"#)
    else {
      Issue.record("not a patch")
      return
    }
    #expect(patched.string == "/rooms/a/m")
    #expect(entries.map(\.relativePath) == ["x/y", "z"])
    #expect(entries.map(\.value) == [.int(2), .null])
  }

  @Test func decodesControlEvents() throws {
    guard case .keepAlive = try decode("keep-alive", "null") else {
      Issue.record("not a keep-alive")
      return
    }
    guard case .cancel(let reason) = try decode("cancel", #""permission denied""#) else {
      Issue.record("not a cancel")
      return
    }
    #expect(reason == "permission denied")
    guard case .authenticationRevoked = try decode("auth_revoked", "credential is no longer valid")
    else {
      Issue.record("not auth_revoked")
      return
    }
  }

  @Test(arguments: [
    ("put", #"{"path":"/","data":{"x":}"#, "malformed put"),
    ("put", #"{"data":1}"#, "\"path\" and \"data\""),
    ("put", #"{"path":1,"data":1}"#, "not a string"),
    ("put", #"{"path":"/a/$b","data":1}"#, "malformed put"),
    ("patch", #"{"path":"/","data":[1]}"#, "patch event carries invalid data"),
    ("patch", #"{"path":"/","data":{"a":1,"a/b":2}}"#, "overlap"),
    ("rewind", "null", "unknown event \"rewind\""),
  ])
  func refusesMalformedEvents(name: String, data: String, reason: String) {
    let error = #expect(throws: WebcomError.self) { try decode(name, data) }
    #expect(error?.code == .decodingFailed)
    #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
  }
}
