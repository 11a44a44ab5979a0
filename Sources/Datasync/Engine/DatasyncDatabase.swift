import Foundation

/// An embedded, in-memory Datasync back end.
///
/// A database holds the authoritative JSON tree. Applications configured with
/// ``DatasyncBackEnd/embedded(_:)`` connect to it as separate clients: each keeps its own cache and
/// sees the others' writes as a remote back end would deliver them, asynchronously and in order.
/// Several applications may share one database.
///
/// The tree is immutable with structural sharing, so every write costs O(log n) per touched child
/// and every snapshot costs O(1). A database is thread-safe.
///
/// ```swift
/// let database = DatasyncDatabase()
/// let alice = WebcomApplication(configuration: .init(identifier: "alice", backEnd: .embedded(database)))
/// let bob = WebcomApplication(configuration: .init(identifier: "bob", backEnd: .embedded(database)))
/// ```
public final class DatasyncDatabase: @unchecked Sendable {
  /// One connected client as the back end knows it.
  private struct Listener {
    var listens: Set<DatasyncPath> = []
    let deliver: @Sendable (BackEndMessage) -> Void
  }

  /// A write a client registered for its disconnection.
  private struct DisconnectionWrite {
    let identifier: RequestIdentifier
    let operation: WriteOperation
    let repeating: Bool
  }

  /// Protects `root`, `listeners`, `disconnectionWrites`, `writeRule` and `clock`. Deliveries are enqueued on the
  /// connections' serial queues while it is held (an enqueue never runs client code), so that
  /// every client receives the changes in the order they were applied.
  private let lock = NSLock()
  private var root: JSONValue = .null
  private var listeners: [ObjectIdentifier: Listener] = [:]
  private var disconnectionWrites: [ObjectIdentifier: [DisconnectionWrite]] = [:]
  private var writeRule: (@Sendable (DatasyncPath) -> WebcomError?)?
  private var clock: @Sendable () -> Date = { Date() }

  /// Creates an empty database.
  public init() {}

  /// The current value at an absolute path (a snapshot that later writes do not change).
  func value(at path: DatasyncPath) -> JSONValue {
    lock.withLock { root.value(at: path.keys) }
  }

  /// Rejects the writes of clients at the paths for which `rule` returns an error (a test hook
  /// standing for the security rules of a real back end); nil accepts every write.
  func setWriteRule(_ rule: (@Sendable (DatasyncPath) -> WebcomError?)?) {
    lock.withLock { writeRule = rule }
  }

  /// Replaces the back end's clock (a test hook standing for a back end whose clock differs from
  /// the client's): it resolves ``WebcomDate/backEndCurrentDate`` and gives the clock offset
  /// announced to clients when they connect.
  func setClock(_ clock: @escaping @Sendable () -> Date) {
    lock.withLock { self.clock = clock }
  }

  /// Stops serving the listens at or below a path (a test hook standing for a lost read
  /// permission): their clients get a revocation with `error`.
  func revokeListens(at path: DatasyncPath, error: WebcomError) {
    lock.withLock {
      for (client, listener) in listeners
      where listener.listens.contains(where: { path.isAncestorOrSelf(of: $0) }) {
        listeners[client]?.listens = listener.listens.filter { !path.isAncestorOrSelf(of: $0) }
        listener.deliver(.revoked(path, error))
      }
    }
  }

  /// Connects a client: from now on it receives messages through `deliver`.
  func attach(_ client: ObjectIdentifier, deliver: @escaping @Sendable (BackEndMessage) -> Void) {
    lock.withLock {
      listeners[client] = Listener(deliver: deliver)
      deliver(.connected(clockOffset: clock().timeIntervalSinceNow))
    }
  }

  /// Disconnects a client: its listens are dropped and its disconnection writes are run.
  func detach(_ client: ObjectIdentifier) {
    lock.withLock {
      guard let listener = listeners.removeValue(forKey: client) else { return }
      let writes = disconnectionWrites[client] ?? []
      disconnectionWrites[client] = writes.filter(\.repeating)
      if disconnectionWrites[client]?.isEmpty == true { disconnectionWrites[client] = nil }
      for write in writes {
        _ = try? applyLocked(write.operation, from: nil)
      }
      listener.deliver(.disconnected)
    }
  }

  /// Handles one request of a connected client; requests of detached clients are ignored.
  func handle(_ request: ClientRequest, from client: ObjectIdentifier) {
    lock.withLock {
      guard let listener = listeners[client] else { return }
      switch request {
      case .listen(let path):
        listeners[client]?.listens.insert(path)
        listener.deliver(.listenData(path, root.value(at: path.keys)))
      case .unlisten(let path):
        listeners[client]?.listens.remove(path)
      case .read(let identifier, let path):
        listener.deliver(.value(identifier, root.value(at: path.keys)))
      case .write(let identifier, let operation):
        do throws(WebcomError) {
          try operation.checkLimits()
          if let error = writeRule?(operation.path) { throw error }
          let announced = try applyLocked(operation, from: client)
          listener.deliver(.acknowledged(identifier, announced: announced))
        } catch {
          listener.deliver(
            .rejected(identifier, error, current: root.value(at: operation.path.keys)))
        }
      case .writeOnDisconnection(let identifier, let operation, let repeating):
        do throws(WebcomError) {
          try operation.checkLimits()
          if let error = writeRule?(operation.path) { throw error }
        } catch {
          listener.deliver(.rejected(identifier, error, current: nil))
          return
        }
        let write = DisconnectionWrite(
          identifier: identifier, operation: operation, repeating: repeating)
        disconnectionWrites[client, default: []].append(write)
        listener.deliver(.acknowledged(identifier, announced: nil))
      case .cancelDisconnectionWrites(let identifier, let path):
        disconnectionWrites[client]?.removeAll {
          $0.operation.path == path || path.isAncestor(of: $0.operation.path)
        }
        listener.deliver(.acknowledged(identifier, announced: nil))
      }
    }
  }

  /// Applies a write and announces it to every other listening client; returns what was written.
  private func applyLocked(
    _ operation: WriteOperation, from writer: ObjectIdentifier?
  ) throws(WebcomError) -> WriteOperation {
    let resolved = operation.resolvingServerValues(now: clock())
    let (tree, announced) = try resolved.applyingAuthoritatively(to: root)
    root = tree
    for (client, listener) in listeners where client != writer {
      for message in Self.messages(announcing: announced, to: listener.listens, in: tree) {
        listener.deliver(message)
      }
    }
    return announced
  }

  /// The messages that tell a client listening at `listens` about a write: the write itself to
  /// a listen at or above its node; below it, to the outermost listens it touches, the part of
  /// the write inside each (the new value of a listen that a set or a merge entry replaces, the
  /// entries of a merge inside a listen re-rooted there).
  private static func messages(
    announcing write: WriteOperation, to listens: Set<DatasyncPath>, in tree: JSONValue
  ) -> [BackEndMessage] {
    let path = write.path
    var below: [DatasyncPath] = []
    for listen in listens {
      if listen.isAncestorOrSelf(of: path) { return [.changed(write)] }
      if path.isAncestor(of: listen) && write.touches(listen) { below.append(listen) }
    }
    return below.filter { listen in !below.contains { $0.isAncestor(of: listen) } }
      .map { .changed(write.restricted(to: $0, in: tree)) }
  }
}

extension WriteOperation {
  /// Whether the write may change the value at `descendant`, a path below the write's path.
  fileprivate func touches(_ descendant: DatasyncPath) -> Bool {
    guard case .merge(let path, let entries) = self else { return true }
    let relative = descendant.relative(to: path)
    return entries.contains { $0.keys.starts(with: relative) || relative.starts(with: $0.keys) }
  }

  /// The part of the write inside `descendant`, a path below the write's path that it touches,
  /// as an operation at `descendant` (`tree` is the tree after the write).
  fileprivate func restricted(to descendant: DatasyncPath, in tree: JSONValue) -> WriteOperation {
    guard case .merge(let path, let entries) = self else {
      return .set(descendant, tree.value(at: descendant.keys))
    }
    let relative = descendant.relative(to: path)
    var inside: [MergeEntry] = []
    for entry in entries {
      if relative.starts(with: entry.keys) {
        // The entry replaces the listened node or one of its ancestors.
        return .set(descendant, tree.value(at: descendant.keys))
      }
      if entry.keys.starts(with: relative) {
        inside.append(MergeEntry(keys: Array(entry.keys[relative.count...]), value: entry.value))
      }
    }
    return .merge(descendant, inside)
  }
}
