/// The client's writes that the back end has not acknowledged yet, in the order they were made,
/// with indexes answering "does a pending write overlap this path?" and "does a pending write
/// determine the whole value at this path?" in O(depth).
///
/// The indexes are kept only when the writes cannot answer from their own paths: a write alone
/// (the usual case, a write acknowledged before the next one is made) answers from its path, and
/// so do `set`s of children of one node in increasing key order (pushes, a burst of them queued
/// while offline): a binary search of their keys answers, without hashing nor a table entry per
/// write.
struct PendingWrites {
  struct Write {
    /// How a write keeps its operation: as it is, or, for a `set` in a run of sibling sets, as
    /// the path of the node (shared by the run) and the child's key, so that a queued push
    /// holds no path of its own.
    private enum Storage {
      case operation(WriteOperation)
      case childSet(parent: DatasyncPath, key: WebcomKey, value: JSONValue)
    }

    let identifier: RequestIdentifier
    private let storage: Storage

    init(identifier: RequestIdentifier, operation: WriteOperation) {
      self.identifier = identifier
      storage = .operation(operation)
    }

    /// A `set` of the child `key` of the node at `parent`.
    private init(
      identifier: RequestIdentifier, parent: DatasyncPath, key: WebcomKey, value: JSONValue
    ) {
      self.identifier = identifier
      storage = .childSet(parent: parent, key: key, value: value)
    }

    /// The operation as applied locally (server values estimated); the path of a sibling set is
    /// made at each use.
    var operation: WriteOperation {
      switch storage {
      case .operation(let operation): operation
      case .childSet(let parent, let key, let value): .set(parent.child(key), value)
      }
    }

    /// ``operation``, taken from the write: one kept whole is handed over without a copy.
    consuming func takeOperation() -> WriteOperation {
      switch storage {
      case .operation(let operation): operation
      case .childSet(let parent, let key, let value): .set(parent.child(key), value)
      }
    }

    /// The last key of the written path (that of the root is `""`).
    var key: WebcomKey {
      switch storage {
      case .operation(let operation): operation.path.key
      case .childSet(_, let key, _): key
      }
    }

    /// The written path but its last key, when the write is a `set` of a node other than the
    /// root.
    var setParentKeys: ArraySlice<WebcomKey>? {
      switch storage {
      case .operation(.set(let path, _)) where !path.isRoot: path.keys.dropLast()
      case .operation: nil
      case .childSet(let parent, _, _): parent.keys[...]
      }
    }

    /// The write as a sibling set under `parent`, which must be its path but its last key; the
    /// write must be a `set` of a node other than the root.
    fileprivate func asChildSet(of parent: DatasyncPath) -> Write {
      switch storage {
      case .operation(.set(let path, let value)):
        Write(identifier: identifier, parent: parent, key: path.key, value: value)
      case .operation, .childSet:
        self
      }
    }

    /// The path of the node whose child the write sets, when the write is a sibling set.
    fileprivate var siblingParent: DatasyncPath? {
      if case .childSet(let parent, _, _) = storage { return parent }
      return nil
    }
  }

  /// The number of pending writes concerning one path, by relation to it. On 32 bits: the
  /// table holds one per path written, and more than 2^31 pending writes cannot fit in memory.
  private struct Counts {
    /// Writes at the path.
    var atPath: Int32 = 0
    /// Writes at the path or below it.
    var atOrBelow: Int32 = 0
    /// Writes that replace the whole value at the path.
    var replacing: Int32 = 0

    var isZero: Bool { atPath == 0 && atOrBelow == 0 && replacing == 0 }
  }

  /// A path as the first `depth` keys of a longer one: the ancestors of a path are looked up
  /// without making their paths (no allocation, one retain). The hash is computed once, when the
  /// prefix is made, and the prefixes of one path get theirs incrementally (see
  /// ``withPrefixHashers(of:_:)``): a key is hashed once per write, whatever the depth.
  ///
  /// The depth and the hash are kept on 32 bits each: the table holds one prefix per path
  /// written, which takes 16 bytes instead of 24 (equal hashes of different prefixes only cost a
  /// comparison of their keys).
  private struct PathPrefix: Hashable {
    let keys: [WebcomKey]
    private let storedDepth: Int32
    private let prefixHash: Int32

    var depth: Int { Int(storedDepth) }

    /// The whole path as a prefix.
    init(_ path: DatasyncPath) {
      var hasher = Hasher()
      for key in path.keys { hasher.combine(key) }
      self.init(path, depth: path.depth, hasher: hasher)
    }

    /// The first `depth` keys of `path`, from a hasher that combined them.
    init(_ path: DatasyncPath, depth: Int, hasher: Hasher) {
      keys = path.keys
      storedDepth = Int32(depth)
      var hasher = hasher
      hasher.combine(depth)
      prefixHash = Int32(truncatingIfNeeded: hasher.finalize())
    }

    static func == (lhs: PathPrefix, rhs: PathPrefix) -> Bool {
      guard lhs.storedDepth == rhs.storedDepth, lhs.prefixHash == rhs.prefixHash else {
        return false
      }
      for index in 0..<lhs.depth where lhs.keys[index] != rhs.keys[index] { return false }
      return true
    }

    func hash(into hasher: inout Hasher) {
      hasher.combine(prefixHash)
    }
  }

  /// Calls `body` with, for each depth of `0...path.depth` (the index), a hasher that combined
  /// the keys of the prefix of `path` of that depth: made in one pass over the keys, in a buffer
  /// on the stack; a prefix's hash is finished only when the prefix is looked up.
  private static func withPrefixHashers<Result>(
    of path: DatasyncPath, _ body: (UnsafeBufferPointer<Hasher>) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: Hasher.self, capacity: path.depth + 1) { hashers in
      var hasher = Hasher()
      for depth in 0...path.depth {
        hashers.initializeElement(at: depth, to: hasher)
        if depth < path.depth { hasher.combine(path.keys[depth]) }
      }
      defer { _ = hashers.deinitialize() }
      return body(UnsafeBufferPointer(hashers))
    }
  }

  /// How the pending writes answer ``overlaps(_:)`` and ``replacesWholeValue(at:)``.
  private enum Layout {
    /// At most one write: it answers from its own path.
    case alone
    /// Two writes or more, all `set`s of children of the same node (of depth `parentDepth`), in
    /// strictly increasing key order: they answer by a binary search of their keys.
    case siblingSets(parentDepth: Int)
    /// Any other writes: `counts` and `replacedPathCount` count them.
    case counted
  }

  /// The capacity up to which the tables keep their storage when the last pending write goes.
  private static let keptCapacity = 64

  private var writes: [Write] = []
  private var start = 0
  /// The counts of the paths with at least one non-zero count, in one table so that a write
  /// costs one hash per path it concerns.
  private var counts: [PathPrefix: Counts] = [:]
  /// The number of paths whose `replacing` count is not zero.
  private var replacedPathCount = 0
  /// Whether the indexes count the pending writes: from the first write that neither is alone
  /// nor extends a run of sibling sets, until none is left.
  private var layout = Layout.alone

  var isEmpty: Bool { start == writes.count }
  /// The identifier of the first pending write (read without copying the write).
  var firstIdentifier: RequestIdentifier? { isEmpty ? nil : writes[start].identifier }
  var all: ArraySlice<Write> { writes[start...] }
  var footprints: [ChangeFootprint] { all.flatMap(\.operation.footprints) }
  /// The number of paths the indexes count (none while the writes answer from their own paths).
  var indexedPathCount: Int { counts.count }

  mutating func append(_ write: consuming Write) {
    switch layout {
    case .counted:
      count(write.operation, by: 1)
      writes.append(write)
    case .alone, .siblingSets:
      guard let parent = sharedParent(of: write) else {
        writes.append(write)
        if writes.count - start > 1 { countAll() }
        return
      }
      // The run of sibling sets goes on: the writes share the path of their node.
      if case .alone = layout {
        writes[writes.count - 1] = writes[writes.count - 1].asChildSet(of: parent)
      }
      writes.append(write.asChildSet(of: parent))
      layout = .siblingSets(parentDepth: parent.depth)
    }
  }

  /// The path of the node whose children both the last pending write and `write` set, when
  /// `write` continues their run of sibling sets in increasing key order; nil otherwise.
  private func sharedParent(of write: borrowing Write) -> DatasyncPath? {
    guard !isEmpty, let parentKeys = write.setParentKeys else { return nil }
    let last = writes[writes.count - 1]
    guard last.key < write.key, let lastParentKeys = last.setParentKeys,
      parentKeys.hasSameKeys(as: lastParentKeys)
    else { return nil }
    return last.siblingParent ?? DatasyncPath(validatedKeys: Array(parentKeys))
  }

  /// Counts every pending write in the indexes, which answer from now on.
  private mutating func countAll() {
    layout = .counted
    for pending in writes[start...] { count(pending.operation, by: 1) }
  }

  /// Whether a pending sibling set writes the child of key `path.keys[parentDepth]` of the node
  /// at the first `parentDepth` keys of `path` (which must be deeper than that node): a binary
  /// search of the writes, whose keys increase.
  private func hasSiblingSet(above path: DatasyncPath, parentDepth: Int) -> Bool {
    guard let parent = writes[start].setParentKeys, path.keys[..<parentDepth] == parent else {
      return false
    }
    let key = path.keys[parentDepth]
    var low = start
    var high = writes.count
    while low < high {
      let middle = low + (high - low) / 2
      let written = writes[middle].key
      if written == key { return true }
      if written < key { low = middle + 1 } else { high = middle }
    }
    return false
  }

  /// Removes the write with this identifier (usually the first one).
  mutating func remove(_ identifier: RequestIdentifier) -> Write? {
    guard let index = writes[start...].firstIndex(where: { $0.identifier == identifier }) else {
      return nil
    }
    if index == start, start + 1 == writes.count {
      // The last pending write went: every count is zero, so the tables empty at once instead
      // of one prefix at a time. Small tables keep their storage for the next write; the
      // storage of a burst's is released. The write is moved out, not copied.
      let write = writes.removeLast()
      writes.removeAll(keepingCapacity: writes.capacity <= Self.keptCapacity)
      counts.removeAll(keepingCapacity: counts.capacity <= Self.keptCapacity)
      start = 0
      replacedPathCount = 0
      layout = .alone
      return write
    }
    let write = writes[index]
    if index == start {
      start += 1
      if start > 64 && start * 2 > writes.count {
        writes.removeFirst(start)
        start = 0
      }
    } else {
      writes.remove(at: index)
    }
    if case .counted = layout { count(write.operation, by: -1) }
    return write
  }

  /// The tree with every pending write applied in order.
  func applied(to tree: JSONValue) -> JSONValue {
    all.reduce(tree) { $1.operation.applyingOptimistically(to: $0) }
  }

  /// Whether a pending write may change the value at `path`.
  func overlaps(_ path: DatasyncPath) -> Bool {
    guard !isEmpty else { return false }
    switch layout {
    case .alone:
      // A write alone overlaps the paths at, above and below its own (a merge's is its node).
      return writes[start].operation.path.overlaps(path)
    case .siblingSets(let parentDepth):
      // Every write is below a path at or above their node; one below it, only the write of
      // its child on the way (if any) overlaps.
      guard path.depth > parentDepth else {
        return writes[start].setParentKeys?.starts(with: path.keys) ?? false
      }
      return hasSiblingSet(above: path, parentDepth: parentDepth)
    case .counted:
      break
    }
    return Self.withPrefixHashers(of: path) { hashers in
      let whole = PathPrefix(path, depth: path.depth, hasher: hashers[path.depth])
      if counts[whole]?.atOrBelow ?? 0 > 0 { return true }
      for depth in (0..<path.depth).reversed()
      where counts[PathPrefix(path, depth: depth, hasher: hashers[depth])]?.atPath ?? 0 > 0 {
        return true
      }
      return false
    }
  }

  /// Whether a pending write replaces the whole value at `path` or at one of its ancestors: the
  /// local value there is then complete, whatever the back end holds.
  ///
  /// A `set` (or a transaction's compare-and-set) replaces its node; a `merge` replaces each
  /// child it names, not the node itself; an increment replaces nothing, as its result depends on
  /// the back end's value.
  func replacesWholeValue(at path: DatasyncPath) -> Bool {
    switch layout {
    case .counted:
      break
    case .siblingSets(let parentDepth):
      return path.depth > parentDepth && hasSiblingSet(above: path, parentDepth: parentDepth)
    case .alone:
      guard let operation = all.first?.operation else { return false }
      switch operation {
      case .set(let written, _), .compareAndSet(let written, _, _):
        return written.isAncestorOrSelf(of: path)
      case .merge(let node, let entries):
        return node.isAncestorOrSelf(of: path)
          && entries.contains { $0.path(under: node).isAncestorOrSelf(of: path) }
      case .increment:
        return false
      }
    }
    guard replacedPathCount > 0 else { return false }
    return Self.withPrefixHashers(of: path) { hashers in
      for depth in (0...path.depth).reversed()
      where counts[PathPrefix(path, depth: depth, hasher: hashers[depth])]?.replacing ?? 0 > 0 {
        return true
      }
      return false
    }
  }

  private mutating func count(_ operation: WriteOperation, by delta: Int32) {
    let path = operation.path
    // Whether the operation replaces the whole value at its own path; a merge replaces the
    // children it names instead.
    let replacesPath: Bool
    switch operation {
    case .set, .compareAndSet:
      replacesPath = true
    case .merge(_, let entries):
      replacesPath = false
      for entry in entries {
        update(PathPrefix(entry.path(under: path))) { $0.replacing += delta }
      }
    case .increment:
      replacesPath = false
    }
    Self.withPrefixHashers(of: path) { hashers in
      // The written path itself: one lookup for its three counts.
      update(PathPrefix(path, depth: path.depth, hasher: hashers[path.depth])) {
        $0.atPath += delta
        $0.atOrBelow += delta
        if replacesPath { $0.replacing += delta }
      }
      for depth in (0..<path.depth).reversed() {
        update(PathPrefix(path, depth: depth, hasher: hashers[depth])) { $0.atOrBelow += delta }
      }
    }
  }

  /// Changes the counts of a path, dropping the entry when they all reach zero.
  private mutating func update(_ path: PathPrefix, _ change: (inout Counts) -> Void) {
    let (wasReplaced, isReplaced, isZero) = Self.apply(change, to: &counts[path, default: Counts()])
    if wasReplaced != isReplaced { replacedPathCount += isReplaced ? 1 : -1 }
    if isZero { counts[path] = nil }
  }

  private static func apply(_ change: (inout Counts) -> Void, to entry: inout Counts) -> (
    wasReplaced: Bool, isReplaced: Bool, isZero: Bool
  ) {
    let wasReplaced = entry.replacing > 0
    change(&entry)
    return (wasReplaced, entry.replacing > 0, entry.isZero)
  }
}
