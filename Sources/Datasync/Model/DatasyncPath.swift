/// An absolute, validated path in a Datasync tree: the keys from the root down to a node.
///
/// Relative paths are resolved as the `DatasyncNode` reference describes: segments are separated
/// by `/`; an empty segment (leading, trailing or repeated `/`) and `.` do nothing; `..` goes one
/// level up and does nothing at the root; any other segment goes down to the child of that key.
/// A path is at most ``maximumDepth`` keys deep and its string at most 768 UTF-8 bytes long,
/// except the path of a push child (``child(_:)``) of a node at those limits: such a path names a
/// node that holds no data, and every write there fails (``checkLimits(writtenBy:)``).
package struct DatasyncPath: Hashable, Sendable, CustomStringConvertible {
  /// The deepest path allowed, in keys.
  static let maximumDepth = 32

  /// The path of the root, `/`.
  static let root = DatasyncPath(validatedKeys: [])

  /// The keys from the root down to the node (empty for the root).
  package let keys: [WebcomKey]

  /// The path as a string: `/` for the root, `/a/b` otherwise.
  ///
  /// Made from the keys at each use: a path holds its keys alone, so that the many paths a
  /// client keeps (one per queued write) cost one array each.
  package var string: String {
    guard !keys.isEmpty else { return "/" }
    return String(unsafeUninitializedCapacity: utf8Count) { buffer in
      var end = 0
      for key in keys {
        buffer[end] = UInt8(ascii: "/")
        end += 1
        key.withUTF8 { bytes in
          _ = UnsafeMutableBufferPointer(rebasing: buffer[end...]).initialize(fromContentsOf: bytes)
          end += bytes.count
        }
      }
      return end
    }
  }

  /// The number of UTF-8 bytes of ``string``, without making it.
  var utf8Count: Int { keys.isEmpty ? 1 : keys.reduce(keys.count) { $0 + $1.utf8Count } }

  /// Creates a path from keys that are known to be valid.
  init(validatedKeys keys: [WebcomKey]) {
    self.keys = keys
  }

  /// Parses a path, resolved from the root.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath` naming the path and the reason.
  init(parsing absolute: String) throws(WebcomError) {
    self = try DatasyncPath.root.resolving(absolute)
  }

  /// The last key of the path, `""` at the root.
  var key: WebcomKey { keys.last ?? "" }

  /// The number of keys of the path (0 for the root).
  var depth: Int { keys.count }

  /// Whether this is the root path.
  package var isRoot: Bool { keys.isEmpty }

  /// The path of the parent, `nil` at the root.
  var parent: DatasyncPath? {
    guard keys.count > 1 else { return keys.isEmpty ? nil : .root }
    return DatasyncPath(validatedKeys: Array(keys.dropLast()))
  }

  /// The path of the child of the given key, which must be a valid key; it may exceed the
  /// limits of paths (see ``checkLimits(writtenBy:)``).
  func child(_ key: WebcomKey) -> DatasyncPath {
    var childKeys: [WebcomKey] = []
    childKeys.reserveCapacity(keys.count + 1)
    childKeys.append(contentsOf: keys)
    childKeys.append(key)
    return DatasyncPath(validatedKeys: childKeys)
  }

  /// The description is the path string.
  package var description: String { string }

  /// Whether this path is a strict ancestor of `other`.
  func isAncestor(of other: DatasyncPath) -> Bool {
    keys.count < other.keys.count && other.keys.starts(with: keys)
  }

  /// Whether this path is `other` or one of its ancestors.
  func isAncestorOrSelf(of other: DatasyncPath) -> Bool {
    keys.count <= other.keys.count && other.keys.starts(with: keys)
  }

  /// Whether this path is `other`, one of its ancestors or one of its descendants: data at one
  /// may change with data at the other.
  func overlaps(_ other: DatasyncPath) -> Bool {
    keys.count <= other.keys.count
      ? other.keys.starts(with: keys) : keys.starts(with: other.keys)
  }

  /// The keys leading from `ancestor` (which must be this path or one of its ancestors) to this
  /// path.
  func relative(to ancestor: DatasyncPath) -> ArraySlice<WebcomKey> {
    precondition(ancestor.isAncestorOrSelf(of: self), "\(ancestor) is not an ancestor of \(self)")
    return keys[ancestor.keys.count...]
  }

  /// Resolves a relative path from this path, as the `DatasyncNode` reference describes.
  ///
  /// From `/foo/bar`: `geek`, `/geek`, `geek/` and `/geek/` give `/foo/bar/geek`;
  /// `../geek/noob`, `/../geek//noob/.` and `../geek/./noob/.` give `/foo/geek/noob`;
  /// `../geek/../..//../..` gives the root.
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath`, naming the path and the reason, when a
  ///   segment is not a valid key or the result is deeper than 32 levels or longer than 768 bytes.
  func resolving(_ relative: String) throws(WebcomError) -> DatasyncPath {
    var text = relative
    let resolved = text.withUTF8 { resolving(relative, utf8: $0) }
    return try resolved.get()
  }

  private func resolving(_ relative: String, utf8: UnsafeBufferPointer<UInt8>)
    -> Result<DatasyncPath, WebcomError>
  {
    // Room for every segment, so that a path of plain keys (all but `.`, `..` and empty
    // segments) is built in one array of its exact size.
    var segmentCount = 0
    var previous = UInt8(ascii: "/")
    for byte in utf8 {
      if previous == UInt8(ascii: "/") && byte != UInt8(ascii: "/") { segmentCount += 1 }
      previous = byte
    }
    var keys: [WebcomKey] = []
    keys.reserveCapacity(self.keys.count + segmentCount)
    keys.append(contentsOf: self.keys)
    var segmentStart = 0
    for index in 0...utf8.count {
      guard index == utf8.count || utf8[index] == UInt8(ascii: "/") else { continue }
      let segment = UnsafeBufferPointer(rebasing: utf8[segmentStart..<index])
      segmentStart = index + 1
      switch segment.count {
      case 0:
        continue
      case 1 where segment[0] == UInt8(ascii: "."):
        continue
      case 2 where segment[0] == UInt8(ascii: ".") && segment[1] == UInt8(ascii: "."):
        if !keys.isEmpty { keys.removeLast() }
        continue
      default:
        if let reason = WebcomKey.invalidityReason(of: segment) {
          let key = String(decoding: segment, as: UTF8.self)
          return .failure(
            DatasyncPath.invalid(
              relative, "the segment \(WebcomKey.quoted(key)) is not a valid key: \(reason)"))
        }
        keys.append(WebcomKey(utf8: segment))
      }
    }
    if keys.count > DatasyncPath.maximumDepth {
      return .failure(
        DatasyncPath.invalid(
          relative,
          "the resulting path is \(keys.count) levels deep, more than the limit of "
            + "\(DatasyncPath.maximumDepth)"))
    }
    // A path may live long (a queued write holds its node's): it keeps its keys at their exact
    // size, not with the room reserved for the parsing. The root keeps no storage at all (an
    // array made with an uninitialised capacity of 0 would write its count into the storage all
    // empty arrays share, a data race between threads resolving root paths).
    let exactKeys: [WebcomKey]
    if keys.isEmpty {
      exactKeys = []
    } else if keys.capacity == keys.count {
      exactKeys = keys
    } else {
      exactKeys = [WebcomKey](unsafeUninitializedCapacity: keys.count) { buffer, initialized in
        initialized = buffer.initialize(fromContentsOf: keys)
      }
    }
    let resolved = DatasyncPath(validatedKeys: exactKeys)
    let byteCount = resolved.utf8Count
    if byteCount > WebcomKey.maximumUTF8Count {
      return .failure(
        DatasyncPath.invalid(
          relative,
          "the resulting path is \(byteCount) UTF-8 bytes long, more than the limit of "
            + "\(WebcomKey.maximumUTF8Count)"))
    }
    return .success(resolved)
  }

  /// Checks that data can be written at this path: at most 32 levels and 768 UTF-8 bytes.
  ///
  /// - Parameter culprit: What writes at the path, for the message (the path itself when nil).
  /// - Throws: ``WebcomError`` with code `invalidPath` naming the path and the limit.
  func checkLimits(writtenBy culprit: String? = nil) throws(WebcomError) {
    let reason: String
    if depth > DatasyncPath.maximumDepth {
      reason = "it is \(depth) levels deep, more than the limit of \(DatasyncPath.maximumDepth)"
    } else if utf8Count > WebcomKey.maximumUTF8Count {
      reason =
        "it is \(utf8Count) UTF-8 bytes long, more than the limit of "
        + "\(WebcomKey.maximumUTF8Count)"
    } else {
      return
    }
    let subject = culprit.map { "\($0) cannot be written at" } ?? "cannot write at"
    throw WebcomError(
      .invalidPath, "\(subject) \(WebcomKey.quoted(string)): the path \(reason)")
  }

  /// Resolves a relative path, or returns `nil` when it is ill-formed.
  func resolvingIfValid(_ relative: String) -> DatasyncPath? {
    try? resolving(relative)
  }

  private static func invalid(_ path: String, _ reason: String) -> WebcomError {
    WebcomError(.invalidPath, "the path \(WebcomKey.quoted(path)) is invalid: \(reason)")
  }

  package static func == (lhs: DatasyncPath, rhs: DatasyncPath) -> Bool {
    lhs.keys[...].hasSameKeys(as: rhs.keys[...])
  }

  package func hash(into hasher: inout Hasher) {
    hasher.combine(keys.count)
    for key in keys { hasher.combine(key) }
  }
}

extension Sequence<DatasyncPath> {
  /// The paths in the order of their strings (a parent before its children), each string made
  /// once rather than at every comparison.
  func sortedByString() -> [DatasyncPath] {
    map { (string: $0.string, path: $0) }.sorted { $0.string < $1.string }.map(\.path)
  }
}

extension ArraySlice<WebcomKey> {
  /// Whether both runs hold the same keys, compared in place (the generic `==` of slices copies
  /// each key it compares).
  func hasSameKeys(as other: Self) -> Bool {
    count == other.count
      && withUnsafeBufferPointer { keys in
        other.withUnsafeBufferPointer { others in
          keys.indices.allSatisfy { keys[$0] == others[$0] }
        }
      }
  }
}
