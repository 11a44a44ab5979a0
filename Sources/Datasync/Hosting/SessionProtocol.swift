/// The session protocol: this project's extension of the REST streaming protocol, which carries
/// the whole connection of a client (``ClientRequest``s in, ``BackEndMessage``s out) so that a
/// remote back end behaves as the embedded one does.
///
/// A client opens one stream, `GET /.session.json?client=<id>` with
/// `Accept: text/event-stream`, whose events are the back end's messages to it, in order; it
/// sends its requests with `POST /.session.json?client=<id>`, a body of one request object or an
/// array of them (handled in order). Paths are absolute. This type encodes and decodes both
/// directions.
///
/// Requests (`id` is the request's identifier, answered by `ack`, `reject`, `value` or `auth`):
///
/// | Request | JSON |
/// |---|---|
/// | listen, unlisten | `{"listen": "/p"}`, `{"unlisten": "/p"}` |
/// | read | `{"id": 1, "read": "/p"}` |
/// | set | `{"id": 1, "set": "/p", "data": …}` |
/// | merge | `{"id": 1, "merge": "/p", "data": {"a/b": …, "c": null}}` |
/// | increment | `{"id": 1, "increment": "/p", "by": 2, "start": 0}` |
/// | compare-and-set | `{"id": 1, "compareAndSet": "/p", "expected": …, "data": …}` |
/// | on disconnection | a write with `"onDisconnect": "once"` or `"always"` |
/// | cancel them | `{"id": 1, "cancelOnDisconnect": "/p"}` |
/// | authenticate, sign out | `{"id": 1, "authenticate": "<token>"}`, `{"id": 1, "signOut": true}` |
///
/// Messages (event name, then data):
///
/// | Message | Event |
/// |---|---|
/// | connected | `connected` `{"client": "<id>", "timestamp": <back end's ms since 1970>}` |
/// | a listen's data | `listened` `{"path": "/p", "data": …}` |
/// | a change | `put` `{"path": "/p", "data": …}`, `patch` `{"path": "/p", "data": {"a/b": …}}` |
/// | acknowledged | `ack` `{"id": 1}`, with `"put"` or `"patch"` (`{"path", "data"}`): what was written |
/// | rejected | `reject` `{"id": 1, "error": {"code": "…", "message": "…"}, "current": …}` |
/// | a read's value | `value` `{"id": 1, "data": …}` |
/// | a listen revoked | `revoke` `{"path": "/p", "error": {…}}` |
/// | authenticated | `auth` `{"id": 1, "auth": {"uid": "…", "provider": "…", "claims": {…}}}` |
/// | identity changed | `auth-change` `{"auth": … or null}` (null: the token was revoked) |
///
/// `current` is absent when the back end does not tell the current value; an identity is
/// `{"admin": true}` for the administrator. `keep-alive` events (data `null`) carry nothing.
enum SessionProtocol {
  // MARK: Requests

  /// The requests of a `POST` body: one request object, or an array of them.
  ///
  /// - Throws: ``WebcomError`` with code `invalidArgument` (or the code of an invalid path,
  ///   key or value) naming the request, by position, and what is wrong.
  static func requests(fromBody bytes: [UInt8]) throws(WebcomError) -> [ClientRequest] {
    let trimmed = bytes.drop { [0x20, 0x0A, 0x0D, 0x09].contains($0) }
    guard trimmed.first == UInt8(ascii: "[") else {
      return [try request(from: bytes[...], position: 0)]
    }
    var requests: [ClientRequest] = []
    for (position, range) in try JSONParser.rawElements(bytes).enumerated() {
      requests.append(try request(from: bytes[range], position: position))
    }
    return requests
  }

  private static func request(from bytes: ArraySlice<UInt8>, position: Int) throws(WebcomError)
    -> ClientRequest
  {
    do {
      return try request(JSONFields(bytes))
    } catch {
      throw WebcomError(error.code, "session request \(position): \(error.message)")
    }
  }

  private static func request(_ fields: JSONFields) throws(WebcomError) -> ClientRequest {
    if fields.contains("listen") { return .listen(try fields.path("listen")) }
    if fields.contains("unlisten") { return .unlisten(try fields.path("unlisten")) }
    let identifier = try fields.identifier("id")
    if fields.contains("read") { return .read(identifier, try fields.path("read")) }
    if fields.contains("cancelOnDisconnect") {
      return .cancelDisconnectionWrites(identifier, try fields.path("cancelOnDisconnect"))
    }
    if fields.contains("authenticate") {
      return .authenticate(identifier, token: try fields.string("authenticate"))
    }
    if fields.contains("signOut") { return .signOut(identifier) }
    let operation = try write(fields)
    guard fields.contains("onDisconnect") else { return .write(identifier, operation) }
    switch try fields.string("onDisconnect") {
    case "once": return .writeOnDisconnection(identifier, operation, repeating: false)
    case "always": return .writeOnDisconnection(identifier, operation, repeating: true)
    case let other:
      throw WebcomError(
        .invalidArgument,
        "onDisconnect must be \"once\" or \"always\", not \(WebcomKey.quoted(other))")
    }
  }

  private static func write(_ fields: JSONFields) throws(WebcomError) -> WriteOperation {
    if fields.contains("set") { return .set(try fields.path("set"), try fields.required("data")) }
    if fields.contains("merge") {
      return .merge(try fields.path("merge"), try fields.mergeEntries("data"))
    }
    if fields.contains("increment") {
      let start = fields.contains("start") ? try fields.number("start") : 0
      return .increment(try fields.path("increment"), start: start, step: try fields.number("by"))
    }
    if fields.contains("compareAndSet") {
      return .compareAndSet(
        try fields.path("compareAndSet"), expected: try fields.required("expected"),
        value: try fields.required("data"))
    }
    throw WebcomError(
      .invalidArgument,
      "unknown request (members: \(fields.names.sorted().joined(separator: ", "))): expected "
        + "listen, unlisten, read, set, merge, increment, compareAndSet, cancelOnDisconnect, "
        + "authenticate or signOut")
  }

  /// The `POST` body of requests (an array).
  static func body(of requests: [ClientRequest]) -> [UInt8] {
    var bytes: [UInt8] = [UInt8(ascii: "[")]
    for (index, request) in requests.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes += JSONText.object(members(of: request)).bytes
    }
    bytes.append(UInt8(ascii: "]"))
    return bytes
  }

  private static func members(of request: ClientRequest) -> [(key: String, value: JSONText)] {
    switch request {
    case .listen(let path): return [("listen", path.jsonText)]
    case .unlisten(let path): return [("unlisten", path.jsonText)]
    case .read(let identifier, let path): return [id(identifier), ("read", path.jsonText)]
    case .write(let identifier, let operation): return [id(identifier)] + members(of: operation)
    case .writeOnDisconnection(let identifier, let operation, let repeating):
      return [id(identifier)] + members(of: operation)
        + [("onDisconnect", .value(.string(repeating ? "always" : "once")))]
    case .cancelDisconnectionWrites(let identifier, let path):
      return [id(identifier), ("cancelOnDisconnect", path.jsonText)]
    case .authenticate(let identifier, let token):
      return [id(identifier), ("authenticate", .value(.string(token)))]
    case .signOut(let identifier): return [id(identifier), ("signOut", .value(.bool(true)))]
    }
  }

  private static func members(of operation: WriteOperation) -> [(key: String, value: JSONText)] {
    switch operation {
    case .set(let path, let value): return [("set", path.jsonText), ("data", .value(value))]
    case .merge(let path, let entries):
      return [("merge", path.jsonText), ("data", .entries(entries))]
    case .increment(let path, let start, let step):
      return [
        ("increment", path.jsonText), ("by", .value(number(step))),
        ("start", .value(number(start))),
      ]
    case .compareAndSet(let path, let expected, let value):
      return [
        ("compareAndSet", path.jsonText), ("expected", .value(expected)), ("data", .value(value)),
      ]
    }
  }

  /// The `id` member of a request or message.
  static func id(_ identifier: WriteIdentifier) -> (key: String, value: JSONText) {
    ("id", .value(.int(Int64(truncatingIfNeeded: identifier))))
  }

  /// A number as the value model keeps it: an integer when it is one.
  static func number(_ double: Double) -> JSONValue {
    if double.rounded() == double, abs(double) < 9.2e18 { return .int(Int64(double)) }
    return .double(double)
  }
}
