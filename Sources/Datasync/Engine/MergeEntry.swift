/// One location a merge writes: a path relative to the merged node, and the value written
/// there exactly as `set` would write it (null deletes).
///
/// The entries of one merge never overlap: no entry's path is the path of another or one of its
/// ancestors, so they can be applied in any order.
package struct MergeEntry: Sendable {
  /// The keys from the merged node down to the written location (at least one).
  let keys: [WebcomKey]
  /// The value written there (null deletes).
  let value: JSONValue

  /// The absolute path the entry writes under a merged node.
  func path(under node: DatasyncPath) -> DatasyncPath {
    DatasyncPath(validatedKeys: node.keys + keys)
  }

  /// The relative path as written in a merge, `a/b`.
  var relativePath: String {
    keys.lazy.map(\.value).joined(separator: "/")
  }

  /// The entries of a merge from its members as encoded: each key is a path relative to the
  /// merged node, `/`-separated, every segment a valid key. Being strict as hosted realtime
  /// databases are, empty segments (a leading, trailing or doubled `/`) and the segments `.` and
  /// `..` are rejected, so that each written location has exactly one spelling.
  ///
  /// - Returns: The entries sorted by path.
  /// - Throws: ``WebcomError`` with code `invalidKey` naming a key with an invalid segment,
  ///   `invalidArgument` naming two keys whose paths overlap (one is the other or inside it).
  static func entries(from members: [(key: WebcomKey, value: JSONValue)]) throws(WebcomError)
    -> [MergeEntry]
  {
    var entries: [MergeEntry] = []
    entries.reserveCapacity(members.count)
    var isSorted = true
    for (key, value) in members {
      let entry = MergeEntry(keys: try segments(of: key), value: value)
      if isSorted, let last = entries.last, !Self.precedes(last.keys, entry.keys) {
        isSorted = false
      }
      entries.append(entry)
    }
    if !isSorted { entries.sort { Self.precedes($0.keys, $1.keys) } }
    // Sorted by path, an entry inside another comes right after it or after entries inside it.
    for (previous, next) in zip(entries, entries.dropFirst())
    where next.keys.starts(with: previous.keys) {
      throw WebcomError(
        .invalidArgument,
        "the merge keys \(WebcomKey.quoted(previous.relativePath)) and "
          + "\(WebcomKey.quoted(next.relativePath)) overlap: a merge writes each location once, "
          + "so no key may name a path inside another")
    }
    return entries
  }

  /// The segments of a merge key.
  private static func segments(of key: WebcomKey) throws(WebcomError) -> [WebcomKey] {
    let name = key.value
    guard name.utf8.contains(UInt8(ascii: "/")) else {
      if let reason = WebcomKey.invalidityReason(of: name.utf8) {
        throw invalidKey(name, reason)
      }
      return [key]
    }
    var segments: [WebcomKey] = []
    for segment in name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
      let text = String(decoding: segment, as: UTF8.self)
      if segment.isEmpty {
        throw invalidKey(
          name, "it has an empty segment (a leading, trailing or doubled \"/\")")
      }
      if text == "." || text == ".." {
        throw invalidKey(
          name, "its segment \"\(text)\" would navigate; merge keys name paths below the node")
      }
      if let reason = WebcomKey.invalidityReason(of: segment) {
        throw invalidKey(
          name, "its segment \(WebcomKey.quoted(text)) is not a valid key: \(reason)")
      }
      segments.append(WebcomKey(text))
    }
    return segments
  }

  private static func invalidKey(_ name: String, _ reason: String) -> WebcomError {
    WebcomError(
      .invalidKey,
      "the merge key \(WebcomKey.quoted(name)) is invalid: \(reason) (a merge key is a child "
        + "key or a path below the node, its segments separated by \"/\")")
  }

  /// Whether `lhs` comes before `rhs`: key by key in key order, a path before the paths
  /// inside it.
  private static func precedes(_ lhs: [WebcomKey], _ rhs: [WebcomKey]) -> Bool {
    for (left, right) in zip(lhs, rhs) where left != right {
      return left < right
    }
    return lhs.count < rhs.count
  }
}
