/// The client's writes that the back end has not acknowledged yet, in the order they were made,
/// with indexes answering "does a pending write overlap this path?" and "does a pending write
/// determine the whole value at this path?" in O(depth).
struct PendingWrites {
  struct Write {
    let identifier: RequestIdentifier
    /// The operation as applied locally (server values estimated).
    let operation: WriteOperation
  }

  private var writes: [Write] = []
  private var start = 0
  private var countAtPath: [DatasyncPath: Int] = [:]
  private var countAtOrBelow: [DatasyncPath: Int] = [:]
  /// The number of pending writes that replace the whole value at a path.
  private var replacingCount: [DatasyncPath: Int] = [:]

  var isEmpty: Bool { start == writes.count }
  var first: Write? { isEmpty ? nil : writes[start] }
  var all: ArraySlice<Write> { writes[start...] }
  var footprints: [ChangeFootprint] { all.flatMap(\.operation.footprints) }

  mutating func append(_ write: Write) {
    writes.append(write)
    count(write.operation, by: 1)
  }

  /// Removes the write with this identifier (usually the first one).
  mutating func remove(_ identifier: RequestIdentifier) -> Write? {
    guard let index = writes[start...].firstIndex(where: { $0.identifier == identifier }) else {
      return nil
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
    count(write.operation, by: -1)
    return write
  }

  /// The tree with every pending write applied in order.
  func applied(to tree: JSONValue) -> JSONValue {
    all.reduce(tree) { $1.operation.applyingOptimistically(to: $0) }
  }

  /// Whether a pending write may change the value at `path`.
  func overlaps(_ path: DatasyncPath) -> Bool {
    guard !isEmpty else { return false }
    if countAtOrBelow[path] != nil { return true }
    var ancestor = path.parent
    while let current = ancestor {
      if countAtPath[current] != nil { return true }
      ancestor = current.parent
    }
    return false
  }

  /// Whether a pending write replaces the whole value at `path` or at one of its ancestors: the
  /// local value there is then complete, whatever the back end holds.
  ///
  /// A `set` (or a transaction's compare-and-set) replaces its node; a `merge` replaces each
  /// child it names, not the node itself; an increment replaces nothing, as its result depends on
  /// the back end's value.
  func replacesWholeValue(at path: DatasyncPath) -> Bool {
    guard !replacingCount.isEmpty else { return false }
    var node: DatasyncPath? = path
    while let current = node {
      if replacingCount[current] != nil { return true }
      node = current.parent
    }
    return false
  }

  /// The paths whose whole value an operation replaces.
  private static func replacedPaths(of operation: WriteOperation) -> [DatasyncPath] {
    switch operation {
    case .set(let path, _), .compareAndSet(let path, _, _): [path]
    case .merge(let path, let entries): entries.map { $0.path(under: path) }
    case .increment: []
    }
  }

  private mutating func count(_ operation: WriteOperation, by delta: Int) {
    for path in Self.replacedPaths(of: operation) {
      Self.add(delta, to: &replacingCount, at: path)
    }
    let path = operation.path
    Self.add(delta, to: &countAtPath, at: path)
    var node: DatasyncPath? = path
    while let current = node {
      Self.add(delta, to: &countAtOrBelow, at: current)
      node = current.parent
    }
  }

  private static func add(_ delta: Int, to counts: inout [DatasyncPath: Int], at path: DatasyncPath)
  {
    let total = counts[path, default: 0] + delta
    counts[path] = total == 0 ? nil : total
  }
}
