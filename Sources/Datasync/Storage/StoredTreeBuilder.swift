/// Rebuilds a tree from its leaves read in the order of their encoded paths (see ``StoredPath``),
/// in time linear in the number of leaves and the length of their paths.
///
/// The order of encoded paths is the key order, so each object's children arrive sorted and the
/// object is built at once from them (``JSONObject/init(sortedUniqueNonNullPairs:)``) when the
/// leaves leave its subtree. Consecutive paths share their common ancestors, whose keys are
/// decoded once. Leaves that cannot come from a stored tree (a malformed path, keys out of order,
/// a leaf at the path of an object) are reported, not repaired.
struct StoredTreeBuilder {
  /// Why leaves cannot belong to a stored tree.
  struct Corruption: Error {
    let reason: String
  }

  /// An object whose children are being collected.
  private struct OpenObject {
    let key: WebcomKey
    /// The offset in the encoded path just after this object's key.
    let keyEnd: Int
    var children: [JSONObject.Element] = []
  }

  /// The objects from the root down to the parent of the last leaf added.
  private var openObjects = [OpenObject(key: "", keyEnd: 0)]
  private var previousPath: [UInt8] = []
  private var rootLeaf: JSONValue?
  private var leafCount = 0

  /// Adds the leaf stored at the encoded path `path`, which must come after the previous one.
  ///
  /// - Throws: ``Corruption`` when the leaf cannot belong to a stored tree.
  mutating func add(_ value: JSONValue, at path: UnsafeRawBufferPointer) throws(Corruption) {
    defer { leafCount += 1 }
    if rootLeaf != nil || (path.isEmpty && leafCount > 0) {
      throw Corruption(reason: "a value is stored at the root and below it")
    }
    if path.isEmpty {
      rootLeaf = value
      return
    }
    let common = commonPrefixLength(path)
    while openObjects.count > 1 && openObjects[openObjects.count - 1].keyEnd > common {
      try closeObject()
    }
    var offset = openObjects[openObjects.count - 1].keyEnd
    while true {
      guard let (key, end) = StoredPath.decodeKey(in: path, at: offset) else {
        throw Corruption(reason: "the path is not a valid encoding at byte \(offset)")
      }
      if end == path.count {
        try appendChild(key, value)
        break
      }
      openObjects.append(OpenObject(key: key, keyEnd: end))
      offset = end
    }
    previousPath.removeAll(keepingCapacity: true)
    previousPath.append(contentsOf: path)
  }

  /// The tree of the leaves added (null when none was).
  ///
  /// - Throws: ``Corruption`` when the last leaves cannot belong to a stored tree.
  mutating func finish() throws(Corruption) -> JSONValue {
    if let rootLeaf { return rootLeaf }
    while openObjects.count > 1 { try closeObject() }
    let children = openObjects[0].children
    return children.isEmpty ? .null : .object(JSONObject(sortedUniqueNonNullPairs: children))
  }

  /// Closes the deepest open object, adding it to its parent.
  private mutating func closeObject() throws(Corruption) {
    let object = openObjects.removeLast()
    try appendChild(object.key, .object(JSONObject(sortedUniqueNonNullPairs: object.children)))
  }

  /// Adds a child to the deepest open object, after checking that it comes after its siblings.
  private mutating func appendChild(_ key: WebcomKey, _ value: JSONValue) throws(Corruption) {
    let parent = openObjects.count - 1
    if let last = openObjects[parent].children.last, !(last.key < key) {
      throw Corruption(
        reason: "the sibling keys \(WebcomKey.quoted(last.key.value)) and "
          + "\(WebcomKey.quoted(key.value)) are stored out of order or twice")
    }
    openObjects[parent].children.append((key, value))
  }

  /// The number of leading bytes that `path` shares with the previous path.
  private func commonPrefixLength(_ path: UnsafeRawBufferPointer) -> Int {
    previousPath.withUnsafeBytes { previous in
      let count = min(previous.count, path.count)
      var index = 0
      while index < count && previous[index] == path[index] { index += 1 }
      return index
    }
  }
}
