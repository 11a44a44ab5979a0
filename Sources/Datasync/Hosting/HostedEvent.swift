/// One event of a Server-Sent Events stream of the REST streaming protocol: its name and its
/// data line (JSON text, except for `auth_revoked`, whose data is plain text as hosted realtime
/// databases send it).
package struct HostedEvent: Sendable, Equatable {
  /// The event's name: `put`, `patch`, `keep-alive`, `cancel`, `auth_revoked`, ...
  package let name: String
  /// The event's data.
  package let data: String

  package init(name: String, data: String) {
    self.name = name
    self.data = data
  }

  /// `put`: the value at `path` (relative to the stream's location, `/` for the location
  /// itself) is now `data`; null deletes it.
  package static func put(path: String, data: JSONValue) -> HostedEvent {
    var bytes = Array(#"{"path":"#.utf8)
    bytes += JSONValue.string(path).jsonBytes()
    bytes += #","data":"#.utf8
    bytes += data.jsonBytes()
    bytes.append(UInt8(ascii: "}"))
    return HostedEvent(name: "put", data: String(decoding: bytes, as: UTF8.self))
  }

  /// `patch`: each entry (a path relative to `path`, `/`-separated) is set to its value; null
  /// deletes it.
  package static func patch(path: String, entries: [MergeEntry]) -> HostedEvent {
    var bytes = Array(#"{"path":"#.utf8)
    bytes += JSONValue.string(path).jsonBytes()
    bytes += #","data":"#.utf8
    bytes += MergeEntry.jsonBytes(of: entries)
    bytes.append(UInt8(ascii: "}"))
    return HostedEvent(name: "patch", data: String(decoding: bytes, as: UTF8.self))
  }

  /// `keep-alive`, sent periodically so that idle connections stay open and dead ones are
  /// noticed; its data is `null`.
  package static let keepAlive = HostedEvent(name: "keep-alive", data: "null")

  /// `cancel`: the stream ends because the rules no longer let it read its location; the data
  /// is the reason, a JSON string.
  package static func cancel(_ error: WebcomError) -> HostedEvent {
    HostedEvent(name: "cancel", data: JSONValue.string(error.message).jsonString)
  }

  /// `auth_revoked`: the stream ends because its credential is no longer valid; the client
  /// should reconnect with a valid one. The data is the text hosted databases send.
  package static let authRevoked = HostedEvent(
    name: "auth_revoked", data: "credential is no longer valid")
}

extension MergeEntry {
  /// The JSON text of a merge's entries as an object keyed by their relative paths
  /// (`/`-separated), null values included: a `PATCH` body, or the data of a `patch` event.
  package static func jsonBytes(of entries: [MergeEntry], pretty: Bool = false) -> [UInt8] {
    JSONValue.jsonBytes(
      ofMembers: entries.lazy.map { (key: $0.relativePath, value: $0.value) }, pretty: pretty)
  }
}
