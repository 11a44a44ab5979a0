/// The paths a back end's clients listen to, as a trie by key, so that finding the listens a
/// write touches costs O(depth + touched listens) — never a scan of every client.
///
/// A trie node exists while a listen is at it or below it: removing the last listen of a branch
/// removes the branch.
struct ListenIndex {
  /// A location of the trie: the clients listening exactly here and the branches below.
  private final class Node {
    var children: [WebcomKey: Node] = [:]
    var clients: Set<ObjectIdentifier> = []

    var isEmpty: Bool { children.isEmpty && clients.isEmpty }
  }

  private let root = Node()

  /// Records that `client` listens at `path`.
  mutating func insert(_ path: DatasyncPath, for client: ObjectIdentifier) {
    var node = root
    for key in path.keys {
      if let child = node.children[key] {
        node = child
      } else {
        let child = Node()
        node.children[key] = child
        node = child
      }
    }
    node.clients.insert(client)
  }

  /// Records that `client` no longer listens at `path`.
  mutating func remove(_ path: DatasyncPath, for client: ObjectIdentifier) {
    var nodes = [root]
    nodes.reserveCapacity(path.depth + 1)
    for key in path.keys {
      guard let child = nodes[nodes.count - 1].children[key] else { return }
      nodes.append(child)
    }
    nodes[nodes.count - 1].clients.remove(client)
    for depth in stride(from: path.depth, to: 0, by: -1) where nodes[depth].isEmpty {
      nodes[depth - 1].children[path.keys[depth - 1]] = nil
    }
  }

  /// The listens a write may change, by client: those at or above the written node, and those
  /// below it inside what it writes (below the node for a set; at, above or below an entry's
  /// location for a merge). The listens of `excluded` (the writer, which is not told of its own
  /// write) are left out.
  func listens(touchedBy write: WriteOperation, excluding excluded: ObjectIdentifier? = nil)
    -> [ObjectIdentifier: Set<DatasyncPath>]
  {
    var found: [ObjectIdentifier: Set<DatasyncPath>] = [:]
    let path = write.path
    var node = root
    Self.collect(node, at: path, depth: 0, excluding: excluded, into: &found)
    for (index, key) in path.keys.enumerated() {
      guard let child = node.children[key] else { return found }
      node = child
      Self.collect(node, at: path, depth: index + 1, excluding: excluded, into: &found)
    }
    // The keys of the written path: copied only when a key is appended to them.
    var keys = path.keys
    guard case .merge(_, let entries) = write else {
      Self.collectBelow(node, at: &keys, excluding: excluded, into: &found)
      return found
    }
    let nodeDepth = keys.count
    for entry in entries {
      var current: Node? = node
      for key in entry.keys {
        current = current?.children[key]
        guard let current else { break }
        keys.append(key)
        Self.collect(current, at: keys, excluding: excluded, into: &found)
      }
      if let current { Self.collectBelow(current, at: &keys, excluding: excluded, into: &found) }
      keys.removeSubrange(nodeDepth...)
    }
    return found
  }

  /// Adds the listens of the node at the first `depth` keys of `path`: the written path itself
  /// is not made again, and its ancestors are made only when they are listened to.
  private static func collect(
    _ node: Node, at path: DatasyncPath, depth: Int, excluding excluded: ObjectIdentifier?,
    into found: inout [ObjectIdentifier: Set<DatasyncPath>]
  ) {
    collect(node, excluding: excluded, into: &found) {
      depth == path.depth ? path : DatasyncPath(validatedKeys: Array(path.keys[..<depth]))
    }
  }

  /// Adds the listens of the node at `keys`.
  private static func collect(
    _ node: Node, at keys: [WebcomKey], excluding excluded: ObjectIdentifier?,
    into found: inout [ObjectIdentifier: Set<DatasyncPath>]
  ) {
    collect(node, excluding: excluded, into: &found) { DatasyncPath(validatedKeys: keys) }
  }

  /// Adds the listens of a node but those of `excluded`; makes their path only when there are
  /// some.
  private static func collect(
    _ node: Node, excluding excluded: ObjectIdentifier?,
    into found: inout [ObjectIdentifier: Set<DatasyncPath>], listen: () -> DatasyncPath
  ) {
    guard !node.clients.isEmpty, node.clients.contains(where: { $0 != excluded }) else { return }
    let path = listen()
    for client in node.clients where client != excluded {
      found[client, default: []].insert(path)
    }
  }

  /// Adds the listens strictly below a node but those of `excluded`.
  private static func collectBelow(
    _ node: Node, at keys: inout [WebcomKey], excluding excluded: ObjectIdentifier?,
    into found: inout [ObjectIdentifier: Set<DatasyncPath>]
  ) {
    for (key, child) in node.children {
      keys.append(key)
      collect(child, at: keys, excluding: excluded, into: &found)
      collectBelow(child, at: &keys, excluding: excluded, into: &found)
      keys.removeLast()
    }
  }
}
