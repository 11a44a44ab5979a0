/// The paths a back end's clients listen to, as a trie by key, so that finding the listens a
/// write touches costs O(depth + touched listens) — never a scan of every client.
///
/// A trie node exists while a listen is at it or below it: removing the last listen of a branch
/// removes the branch.
struct ListenIndex {
  /// A location of the trie: its path, the clients listening exactly here and the branches
  /// below. The path is made once, with the node, so that finding listens makes no path.
  ///
  /// The index's owner serialises every use of it (the database's lock), so no two accesses to
  /// a node overlap: the dynamic exclusivity checks (a thread-local look-up per access, on every
  /// write's way down the trie) are left out.
  private final class Node {
    let path: DatasyncPath
    @exclusivity(unchecked) var children: [WebcomKey: Node] = [:]
    @exclusivity(unchecked) var clients: Set<ObjectIdentifier> = []

    init(path: DatasyncPath) {
      self.path = path
    }

    var isEmpty: Bool { children.isEmpty && clients.isEmpty }
  }

  private let root = Node(path: .root)
  /// The number of listens of each client that has some: a write that no other client than the
  /// excluded one listens to (an embedded database's only client writing) skips the walk.
  private var listenCounts: [ObjectIdentifier: Int] = [:]

  /// Records that `client` listens at `path`.
  mutating func insert(_ path: DatasyncPath, for client: ObjectIdentifier) {
    var node = root
    for (index, key) in path.keys.enumerated() {
      if let child = node.children[key] {
        node = child
      } else {
        let child = Node(
          path: index + 1 == path.depth
            ? path : DatasyncPath(validatedKeys: Array(path.keys[...index])))
        node.children[key] = child
        node = child
      }
    }
    if node.clients.insert(client).inserted { listenCounts[client, default: 0] += 1 }
  }

  /// Records that `client` no longer listens at `path`.
  mutating func remove(_ path: DatasyncPath, for client: ObjectIdentifier) {
    var nodes = [root]
    nodes.reserveCapacity(path.depth + 1)
    for key in path.keys {
      guard let child = nodes[nodes.count - 1].children[key] else { return }
      nodes.append(child)
    }
    if nodes[nodes.count - 1].clients.remove(client) != nil {
      let count = listenCounts[client, default: 1] - 1
      listenCounts[client] = count == 0 ? nil : count
    }
    for depth in stride(from: path.depth, to: 0, by: -1) where nodes[depth].isEmpty {
      nodes[depth - 1].children[path.keys[depth - 1]] = nil
    }
  }

  /// A listen that a write touches: the client and the path it listens to.
  struct TouchedListen: Hashable {
    let client: ObjectIdentifier
    let path: DatasyncPath
  }

  /// The listens a write may change, each once, those of a client next to each other: those at
  /// or above the written node, and those below it inside what it writes (below the node for a
  /// set; at, above or below an entry's location for a merge). The listens of `excluded` (the
  /// writer, which is not told of its own write) are left out.
  ///
  /// One list, sorted by client only when several clients listen, so that finding the listens
  /// of a set hashes no path (a merge, whose entries may reach one listen twice, hashes them to
  /// drop the repeats).
  func listens(touchedBy write: WriteOperation, excluding excluded: ObjectIdentifier? = nil)
    -> [TouchedListen]
  {
    var found: [TouchedListen] = []
    if listenCounts.isEmpty
      || (listenCounts.count == 1 && excluded.map { listenCounts[$0] != nil } == true)
    {
      return found
    }
    var node = root
    Self.collect(node, excluding: excluded, into: &found)
    for key in write.path.keys {
      guard let child = node.children[key] else { return Self.grouped(found) }
      node = child
      Self.collect(node, excluding: excluded, into: &found)
    }
    guard case .merge(_, let entries) = write else {
      Self.collectBelow(node, excluding: excluded, into: &found)
      return Self.grouped(found)
    }
    for entry in entries {
      var current: Node? = node
      for key in entry.keys {
        current = current?.children[key]
        guard let current else { break }
        Self.collect(current, excluding: excluded, into: &found)
      }
      if let current { Self.collectBelow(current, excluding: excluded, into: &found) }
    }
    var seen = Set<TouchedListen>()
    return Self.grouped(found.filter { seen.insert($0).inserted })
  }

  /// The listens with those of each client next to each other.
  private static func grouped(_ listens: [TouchedListen]) -> [TouchedListen] {
    guard let first = listens.first?.client, listens.contains(where: { $0.client != first }) else {
      return listens
    }
    return listens.sorted { $0.client < $1.client }
  }

  /// Adds the listens of a node but those of `excluded`.
  private static func collect(
    _ node: Node, excluding excluded: ObjectIdentifier?, into found: inout [TouchedListen]
  ) {
    for client in node.clients where client != excluded {
      found.append(TouchedListen(client: client, path: node.path))
    }
  }

  /// Adds the listens strictly below a node but those of `excluded`.
  private static func collectBelow(
    _ node: Node, excluding excluded: ObjectIdentifier?, into found: inout [TouchedListen]
  ) {
    for child in node.children.values {
      collect(child, excluding: excluded, into: &found)
      collectBelow(child, excluding: excluded, into: &found)
    }
  }
}
