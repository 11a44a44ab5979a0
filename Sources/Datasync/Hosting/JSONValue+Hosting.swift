/// What a server needs of values to speak the REST protocol of hosted realtime databases.
extension JSONValue {
  /// Parses a request body: JSON text with the server values `{".sv": "timestamp"}` and
  /// `{".sv": {"increment": n}}` allowed anywhere (the back end resolves them when it applies
  /// the write).
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` for malformed JSON, a number out of the
  ///   finite range or nesting deeper than 32 levels, `invalidKey` for a key that cannot be
  ///   stored; the message names the key path.
  package static func parsingRequestBody(_ bytes: [UInt8]) throws(WebcomError) -> JSONValue {
    try JSONParser.parse(bytes, allowsIncrements: true)
  }

  /// Parses the body of a merge (a REST `PATCH`): a JSON object whose keys are child keys or
  /// `/`-separated paths below the node (multi-location), each written as `set` would write it
  /// (null deletes), server values allowed.
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` when the body is not a JSON object or a
  ///   value is malformed, `invalidKey` for a key with an invalid segment, `invalidArgument` for
  ///   two keys whose paths overlap; the message names the culprit.
  package static func parsingMergeBody(_ bytes: [UInt8]) throws(WebcomError) -> [MergeEntry] {
    let members = try JSONParser.parseMembers(bytes)
    return try MergeEntry.entries(from: members.map { (WebcomKey($0.key), $0.value) })
  }

  /// The value with every child replaced by `true` when it has children of its own (a REST
  /// `shallow` read): an object keeps its keys, each mapped to its value when that is a
  /// scalar, to `true` otherwise; a scalar or null is unchanged.
  package var shallow: JSONValue {
    guard case .object(let object) = self else { return self }
    var pairs: [JSONObject.Element] = []
    pairs.reserveCapacity(object.count)
    for (key, child) in object {
      if case .object = child {
        pairs.append((key, .bool(true)))
      } else {
        pairs.append((key, child))
      }
    }
    return .object(JSONObject(sortedUniqueNonNullPairs: pairs))
  }

  /// The JSON text of the value, compact or pretty (see ``JSONWriter``).
  package func jsonBytes(pretty: Bool = false) -> [UInt8] {
    var writer = JSONWriter(pretty: pretty)
    writer.write(self)
    return writer.bytes
  }

  /// The JSON text of an object made of `members` as given (keys as they are, in this order,
  /// null values included), compact or pretty.
  package static func jsonBytes(
    ofMembers members: some Sequence<(key: String, value: JSONValue)>, pretty: Bool = false
  ) -> [UInt8] {
    var writer = JSONWriter(pretty: pretty)
    writer.writeMembers(members)
    return writer.bytes
  }

  /// The entity tag of the value for conditional requests: its ``digest`` as 16 hexadecimal
  /// digits between double quotes.
  package var entityTag: String {
    let hex = String(digest, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - hex.count) + hex + "\""
  }
}
