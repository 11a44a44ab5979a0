/// A map from paths to values in which the values at, above or below a path are found without
/// looking at the others: in O(depth + values found), never by a scan of every path.
///
/// Up to ``linearLimit`` paths are kept in a list and searched by comparing paths, which hashes
/// nothing (the usual client has a few); past it, in a trie by key. A value type: copies share
/// their storage until one of them changes. A branch of the trie goes with the last value in it.
///
/// ```swift
/// var listened = PathTrie<Int>()
/// listened[try DatasyncPath(parsing: "/rooms/general")] = 1
/// listened.containsValue(atOrAround: try DatasyncPath(parsing: "/rooms"))  // true: one is below
/// ```
struct PathTrie<Value> {
  fileprivate struct Node {
    var value: Value?
    var children: [WebcomKey: Node] = [:]
    /// The number of values here and below.
    var count = 0
  }

  private enum Storage {
    case list([(path: DatasyncPath, value: Value)])
    case trie(Node)
  }

  /// Up to how many paths the map keeps in a list; it goes back to a list when it falls to half
  /// of this.
  static var linearLimit: Int { 8 }

  private var storage = Storage.list([])

  /// Whether no path has a value.
  var isEmpty: Bool { count == 0 }

  /// The number of paths with a value.
  var count: Int {
    switch storage {
    case .list(let entries): entries.count
    case .trie(let root): root.count
    }
  }

  /// The value at `path`, nil when it has none; setting nil removes it.
  subscript(path: DatasyncPath) -> Value? {
    get {
      switch storage {
      case .list(let entries): entries.first { $0.path == path }?.value
      case .trie(let root): Self.node(at: path, under: root)?.value
      }
    }
    set { modifyValue(at: path) { $0 = newValue } }
  }

  /// The value at `path`, `defaultValue` when it has none.
  subscript(path: DatasyncPath, default defaultValue: @autoclosure () -> Value) -> Value {
    get { self[path] ?? defaultValue() }
    set { self[path] = newValue }
  }

  /// Calls `body` with the value at `path` (nil when it has none) to change it in place: setting
  /// nil removes it. Returns what `body` returns.
  @discardableResult
  mutating func modifyValue<Result>(
    at path: DatasyncPath, _ body: (inout Value?) -> Result
  ) -> Result {
    switch storage {
    case .list(var entries):
      // Taken out of the storage, and the value out of the list, so that both change in place.
      storage = .list([])
      let index = entries.firstIndex { $0.path == path }
      var value = index.map { entries.remove(at: $0).value }
      let result = body(&value)
      if let value { entries.insert((path, value), at: index ?? entries.count) }
      if entries.count > Self.linearLimit {
        var root = Node()
        for (path, value) in entries {
          Self.modify(keys: path.keys[...], in: &root) { $0 = value }
        }
        storage = .trie(root)
      } else {
        storage = .list(entries)
      }
      return result
    case .trie(var root):
      storage = .list([])
      let result = Self.modify(keys: path.keys[...], in: &root, body)
      storage = .trie(root)
      if root.count <= Self.linearLimit / 2 { storage = .list(entries(atOrBelow: .root)) }
      return result
    }
  }

  /// Whether a value is at `path`, above it or below it.
  func containsValue(atOrAround path: DatasyncPath) -> Bool {
    switch storage {
    case .list(let entries):
      return entries.contains { $0.path.overlaps(path) }
    case .trie(var node):
      for key in path.keys {
        if node.value != nil { return true }
        guard let child = node.children[key] else { return false }
        node = child
      }
      return node.count > 0
    }
  }

  /// Whether a value is strictly below `path`.
  func containsValue(below path: DatasyncPath) -> Bool {
    switch storage {
    case .list(let entries):
      return entries.contains { path.isAncestor(of: $0.path) }
    case .trie(let root):
      guard let node = Self.node(at: path, under: root) else { return false }
      return node.count > (node.value == nil ? 0 : 1)
    }
  }

  /// Calls `body` with the values at, above and below `path`, in no particular order; with
  /// `children`, only the values below it that are at or below one of these children of `path`.
  func forEachValue(
    atOrAround path: DatasyncPath, inChildren children: Set<WebcomKey>? = nil,
    _ body: (Value) throws -> Void
  ) rethrows {
    switch storage {
    case .list(let entries):
      for (entryPath, value) in entries {
        if entryPath.isAncestorOrSelf(of: path) {
          try body(value)
        } else if path.isAncestor(of: entryPath),
          children?.contains(entryPath.keys[path.depth]) ?? true
        {
          try body(value)
        }
      }
    case .trie(var node):
      for key in path.keys {
        if let value = node.value { try body(value) }
        guard let child = node.children[key] else { return }
        node = child
      }
      if let value = node.value { try body(value) }
      guard node.count > (node.value == nil ? 0 : 1) else { return }
      guard let children else {
        for child in node.children.values { try Self.forEachValue(in: child, body) }
        return
      }
      for key in children {
        if let child = node.children[key] { try Self.forEachValue(in: child, body) }
      }
    }
  }

  /// Calls `body` with the values at and below `path`, in no particular order.
  func forEachValue(atOrBelow path: DatasyncPath, _ body: (Value) throws -> Void) rethrows {
    switch storage {
    case .list(let entries):
      for (entryPath, value) in entries where path.isAncestorOrSelf(of: entryPath) {
        try body(value)
      }
    case .trie(let root):
      guard let node = Self.node(at: path, under: root) else { return }
      try Self.forEachValue(in: node, body)
    }
  }

  /// The paths at or below `path` that have a value, in no particular order.
  func paths(atOrBelow path: DatasyncPath) -> [DatasyncPath] {
    entries(atOrBelow: path).map(\.path)
  }

  // MARK: Internals

  private func entries(atOrBelow path: DatasyncPath) -> [(path: DatasyncPath, value: Value)] {
    switch storage {
    case .list(let entries):
      return entries.filter { path.isAncestorOrSelf(of: $0.path) }
    case .trie(let root):
      guard let node = Self.node(at: path, under: root) else { return [] }
      var entries: [(path: DatasyncPath, value: Value)] = []
      var keys = path.keys
      Self.collectEntries(in: node, keys: &keys, into: &entries)
      return entries
    }
  }

  private static func node(at path: DatasyncPath, under root: Node) -> Node? {
    var node = root
    for key in path.keys {
      guard let child = node.children[key] else { return nil }
      node = child
    }
    return node
  }

  /// Calls `body` with the value below `node` at the path `keys` leads to, in place, keeping the
  /// counts and dropping the branches left empty.
  private static func modify<Result>(
    keys: ArraySlice<WebcomKey>, in node: inout Node, _ body: (inout Value?) -> Result
  ) -> Result {
    guard let key = keys.first else {
      let had = node.value != nil
      let result = body(&node.value)
      node.count += (node.value == nil ? 0 : 1) - (had ? 1 : 0)
      return result
    }
    let before = node.children[key]?.count ?? 0
    let result = modify(keys: keys.dropFirst(), in: &node.children[key, default: Node()], body)
    let after = node.children[key]?.count ?? 0
    node.count += after - before
    if after == 0 { node.children[key] = nil }
    return result
  }

  private static func forEachValue(in node: Node, _ body: (Value) throws -> Void) rethrows {
    if let value = node.value { try body(value) }
    for child in node.children.values { try forEachValue(in: child, body) }
  }

  private static func collectEntries(
    in node: Node, keys: inout [WebcomKey], into entries: inout [(path: DatasyncPath, value: Value)]
  ) {
    if let value = node.value { entries.append((DatasyncPath(validatedKeys: keys), value)) }
    for (key, child) in node.children {
      keys.append(key)
      collectEntries(in: child, keys: &keys, into: &entries)
      keys.removeLast()
    }
  }
}
