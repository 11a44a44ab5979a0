/// An event of a streaming read (the REST streaming protocol of hosted realtime databases), with
/// its paths made absolute.
enum RemoteStreamEvent: Sendable {
  /// The value at the path is now the data (null deletes).
  case put(DatasyncPath, JSONValue)
  /// Each entry below the path is set as `set` would set it (null deletes).
  case patch(DatasyncPath, [MergeEntry])
  /// Nothing changed; the server tells that the stream is alive.
  case keepAlive
  /// The server no longer lets the stream read its location; the reason it gave.
  case cancel(String)
  /// The stream's credential is no longer valid.
  case authenticationRevoked

  /// Decodes an event of the stream listening at `location`.
  ///
  /// - Throws: ``WebcomError`` with code `decodingFailed` naming the event for an unknown event
  ///   name, data that is not the JSON the event needs (`{"path": ..., "data": ...}` for `put`
  ///   and `patch`), or a path that is not a valid path.
  init(_ event: ServerSentEvent, at location: DatasyncPath) throws(WebcomError) {
    switch event.name {
    case "put", "patch":
      let (path, data) = try Self.pathAndData(of: event, at: location)
      if event.name == "put" {
        self = .put(path, try Self.parse(data, of: event, as: .value).value)
      } else {
        self = .patch(path, try Self.parse(data, of: event, as: .entries).entries)
      }
    case "keep-alive":
      self = .keepAlive
    case "cancel":
      let reason = try? JSONParser.parse(Array(event.data.utf8))
      if case .string(let text)? = reason {
        self = .cancel(text)
      } else {
        self = .cancel(event.data)
      }
    case "auth_revoked":
      self = .authenticationRevoked
    default:
      throw WebcomError(
        .decodingFailed,
        "the stream at \(location.string) sent an unknown event \(WebcomKey.quoted(event.name))")
    }
  }

  private enum Shape {
    case value, entries
  }

  /// The absolute path of a `put` or `patch` event, and the bytes of its data member.
  private static func pathAndData(of event: ServerSentEvent, at location: DatasyncPath)
    throws(WebcomError) -> (DatasyncPath, [UInt8])
  {
    let text = Array(event.data.utf8)
    let members: [(key: String, value: Range<Int>)]
    do {
      members = try JSONParser.rawMembers(text)
    } catch {
      throw malformed(event, at: location, error.message)
    }
    guard let pathRange = members.first(where: { $0.key == "path" })?.value,
      let dataRange = members.first(where: { $0.key == "data" })?.value
    else {
      throw malformed(event, at: location, "it needs the members \"path\" and \"data\"")
    }
    guard case .string(let relative)? = try? JSONParser.parse(Array(text[pathRange])) else {
      throw malformed(event, at: location, "its \"path\" is not a string")
    }
    let path: DatasyncPath
    do {
      path = try DatasyncPath(parsing: relative)
    } catch {
      throw malformed(event, at: location, error.message)
    }
    return (DatasyncPath(validatedKeys: location.keys + path.keys), Array(text[dataRange]))
  }

  private static func parse(_ data: [UInt8], of event: ServerSentEvent, as shape: Shape)
    throws(WebcomError) -> (value: JSONValue, entries: [MergeEntry])
  {
    do {
      switch shape {
      case .value:
        return (try JSONParser.parse(data), [])
      case .entries:
        let members = try JSONParser.parseMembers(data)
        return (.null, try MergeEntry.entries(from: members.map { (WebcomKey($0.key), $0.value) }))
      }
    } catch {
      throw WebcomError(
        .decodingFailed, "a \(event.name) event carries invalid data: \(error.message)")
    }
  }

  private static func malformed(
    _ event: ServerSentEvent, at location: DatasyncPath, _ reason: String
  )
    -> WebcomError
  {
    WebcomError(
      .decodingFailed,
      "the stream at \(location.string) sent a malformed \(event.name) event: \(reason)")
  }
}
