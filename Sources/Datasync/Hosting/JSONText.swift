/// JSON text composed of pieces: values of the model, and objects whose keys need not be valid
/// keys (the `/`-separated paths of a merge) or whose members are themselves composed.
struct JSONText {
  let bytes: [UInt8]

  /// The text of a value.
  static func value(_ value: JSONValue) -> JSONText {
    JSONText(bytes: value.jsonBytes())
  }

  /// The text of a merge's entries: an object keyed by their relative paths, nulls included.
  static func entries(_ entries: [MergeEntry]) -> JSONText {
    JSONText(bytes: MergeEntry.jsonBytes(of: entries))
  }

  /// The text of an object of composed members, in this order.
  static func object(_ members: [(key: String, value: JSONText)]) -> JSONText {
    var bytes: [UInt8] = [UInt8(ascii: "{")]
    for (index, member) in members.enumerated() {
      if index > 0 { bytes.append(UInt8(ascii: ",")) }
      bytes += JSONValue.string(member.key).jsonBytes()
      bytes.append(UInt8(ascii: ":"))
      bytes += member.value.bytes
    }
    bytes.append(UInt8(ascii: "}"))
    return JSONText(bytes: bytes)
  }

  /// The text as a string.
  var string: String { String(decoding: bytes, as: UTF8.self) }
}

extension DatasyncPath {
  /// The path as a JSON string.
  var jsonText: JSONText { .value(.string(string)) }
}
