/// The members of a JSON object read lazily: each value is parsed only when asked for, the way
/// its member needs (a value, a merge's `/`-separated keys, a nested object of fields).
struct JSONFields {
  private let bytes: ArraySlice<UInt8>
  private let members: [String: Range<Int>]

  /// Reads the members of the JSON object in `bytes`.
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` when it is not a well-formed object.
  init(_ bytes: ArraySlice<UInt8>) throws(WebcomError) {
    let base = bytes.startIndex
    self.bytes = bytes
    var members: [String: Range<Int>] = [:]
    for (key, range) in try JSONParser.rawMembers(bytes) {
      members[key] = (range.lowerBound + base)..<(range.upperBound + base)
    }
    self.members = members
  }

  /// Whether the object has a member of this name.
  func contains(_ name: String) -> Bool { members[name] != nil }

  /// The names of the members.
  var names: Dictionary<String, Range<Int>>.Keys { members.keys }

  /// A member's value (server values allowed), nil when absent.
  func value(_ name: String) throws(WebcomError) -> JSONValue? {
    guard let range = members[name] else { return nil }
    return try JSONParser.parse(bytes[range], allowsIncrements: true)
  }

  /// A member that must be present.
  func required(_ name: String) throws(WebcomError) -> JSONValue {
    guard let value = try value(name) else {
      throw WebcomError(.invalidArgument, "the member \"\(name)\" is missing")
    }
    return value
  }

  /// A member that must be a string.
  func string(_ name: String) throws(WebcomError) -> String {
    guard case .string(let string) = try required(name) else {
      throw WebcomError(.invalidArgument, "the member \"\(name)\" must be a string")
    }
    return string
  }

  /// A member that must be a number.
  func number(_ name: String) throws(WebcomError) -> Double {
    switch try required(name) {
    case .int(let integer): return Double(integer)
    case .double(let double): return double
    default: throw WebcomError(.invalidArgument, "the member \"\(name)\" must be a number")
    }
  }

  /// A member that must be a non-negative integer.
  func identifier(_ name: String) throws(WebcomError) -> UInt64 {
    guard case .int(let integer) = try required(name), integer >= 0 else {
      throw WebcomError(.invalidArgument, "the member \"\(name)\" must be a non-negative integer")
    }
    return UInt64(integer)
  }

  /// A member that must be a path.
  func path(_ name: String) throws(WebcomError) -> DatasyncPath {
    try DatasyncPath(restPath: try string(name))
  }

  /// A member that must be an object of `/`-separated paths (a merge's entries).
  func mergeEntries(_ name: String) throws(WebcomError) -> [MergeEntry] {
    guard let range = members[name] else {
      throw WebcomError(.invalidArgument, "the member \"\(name)\" is missing")
    }
    let entries = try JSONParser.parseMembers(bytes[range])
    return try MergeEntry.entries(from: entries.map { (WebcomKey($0.key), $0.value) })
  }

  /// A member that must be an object, read as fields.
  func fields(_ name: String) throws(WebcomError) -> JSONFields {
    guard let range = members[name] else {
      throw WebcomError(.invalidArgument, "the member \"\(name)\" is missing")
    }
    return try JSONFields(bytes[range])
  }
}
