/// The paths a back end's clients listen to, filed by path (``PathTrie``), so that finding the
/// listens a write touches costs O(depth + touched listens) — never a scan of every client.
struct ListenIndex {
  /// The clients listening at one path, with the path, made once with the entry so that finding
  /// listens makes no path.
  private struct Listeners {
    let path: DatasyncPath
    var clients: Set<ObjectIdentifier> = []
  }

  private var listeners = PathTrie<Listeners>()
  /// The number of listens of each client that has some: a write that no other client than the
  /// excluded one listens to (an embedded database's only client writing) skips the search.
  private var listenCounts: [ObjectIdentifier: Int] = [:]

  /// Records that `client` listens at `path`.
  mutating func insert(_ path: DatasyncPath, for client: ObjectIdentifier) {
    let inserted = listeners.modifyValue(at: path) { entry in
      if entry == nil { entry = Listeners(path: path) }
      return entry!.clients.insert(client).inserted
    }
    if inserted { listenCounts[client, default: 0] += 1 }
  }

  /// Records that `client` no longer listens at `path`.
  mutating func remove(_ path: DatasyncPath, for client: ObjectIdentifier) {
    let removed = listeners.modifyValue(at: path) { entry in
      let removed = entry?.clients.remove(client) != nil
      if entry?.clients.isEmpty == true { entry = nil }
      return removed
    }
    guard removed else { return }
    let count = listenCounts[client, default: 1] - 1
    listenCounts[client] = count == 0 ? nil : count
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
    guard case .merge(let path, let entries) = write else {
      listeners.forEachValue(atOrAround: write.path) {
        Self.collect($0, excluding: excluded, into: &found)
      }
      return Self.grouped(found)
    }
    listeners.forEachValue(atOrAround: path, inChildren: []) {
      Self.collect($0, excluding: excluded, into: &found)
    }
    for entry in entries {
      listeners.forEachValue(atOrAround: entry.path(under: path)) {
        Self.collect($0, excluding: excluded, into: &found)
      }
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

  /// Adds the listens of the clients at one path but those of `excluded`.
  private static func collect(
    _ listeners: Listeners, excluding excluded: ObjectIdentifier?,
    into found: inout [TouchedListen]
  ) {
    for client in listeners.clients where client != excluded {
      found.append(TouchedListen(client: client, path: listeners.path))
    }
  }
}
