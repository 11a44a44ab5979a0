import Foundation
import Synchronization

/// An embedded, in-memory Datasync back end that enforces security rules.
///
/// A database holds the authoritative JSON tree. Applications configured with
/// ``DatasyncBackEnd/embedded(_:)`` connect to it as separate clients: each keeps its own cache and
/// sees the others' writes as a remote back end would deliver them, asynchronously and in order.
/// Several applications may share one database.
///
/// Every client is checked against ``rules`` (see ``DatasyncRules``), as the identity it
/// authenticated as: a client starts unauthenticated (`auth == null` in rules) on every
/// connection and becomes the identity a token of `tokens` stands for when it authenticates
/// with that token.
/// - A listen (a subscription) needs read access at its node: a denied one is revoked at once
///   (the subscription completes with ``DatasyncSubscriptionCompletion/revoked(_:)`` and a
///   `permissionDenied` error). So is a one-time read (it fails with that error).
/// - Every write (`set`, `merge` with all its locations, `push`, `increment`, `transaction`,
///   `copy(to:)`) needs write access and valid new data; a denied write applies nothing, its
///   callback gets `permissionDenied` naming the path, and the writer's local events are
///   reverted. A transaction also needs read access at its node. A client is told the result of
///   an increment, or the current value after a refused write, only where it may read.
/// - Disconnection operations are checked when registered, with the registering client's
///   identity, and again when they run, as the identity its token then stands for (a refused one
///   is dropped, nothing of it applied).
/// - When the rules change, when a token is revoked or stands for another identity, or when a
///   client authenticates again or signs out, the live listens concerned are checked again and
///   those that lost read access are revoked. A change of the data a `.read` rule reads does not
///   re-check listens already granted.
///
/// The tree is immutable with structural sharing, so every write costs O(log n) per touched child
/// and every snapshot costs O(1). The rules add the cost of the rules on the paths a write or a
/// read touches, never one that grows with the size of the tree (beyond a key lookup). A database
/// is thread-safe.
///
/// ```swift
/// let database = DatasyncDatabase(
///   rules: try DatasyncRules(json: #"{"rules": {".read": "auth != null", ".write": "auth != null"}}"#),
///   tokens: ["alice-token": DatasyncAuthentication(uid: "alice")])
/// let alice = WebcomApplication(configuration: .init(identifier: "alice", backEnd: .embedded(database)))
/// let bob = WebcomApplication(configuration: .init(identifier: "bob", backEnd: .embedded(database)))
/// ```
public final class DatasyncDatabase: @unchecked Sendable {
  /// Protects `state` and `connectionsToWake`. Deliveries are enqueued on the connections'
  /// serial queues while it is held (an enqueue never runs client code), so that every client
  /// receives the changes in the order they were applied; the wake-ups they need are made once it
  /// is released (see ``wakeAfterUnlocking(_:)``).
  private let lock = SpinningMutex()
  /// Only touched with `lock` held, so no two accesses overlap: the dynamic exclusivity check is
  /// left out.
  @exclusivity(unchecked) private var state: DatabaseState
  /// The embedded connections whose drain a delivery scheduled while `lock` was held: enqueued
  /// once it is released, so that no thread wake-up (a system call) lengthens the time the lock
  /// is held. Only touched with `lock` held.
  @exclusivity(unchecked) private var connectionsToWake: [EmbeddedConnection] = []
  /// The clock a test set in place of the system's (a test hook), behind a lock of its own so
  /// that reading it before a request does not take the database's lock; it is called after
  /// that lock is released. Nil: the system's clock.
  private let testClock = LockedValue<Clock?>(nil)
  /// Whether `testClock` was ever set: until then, a request reads the system's clock without
  /// taking `testClock`'s lock.
  private let hasTestClock = Atomic<Bool>(false)

  /// The clock, in a struct: the lock's generic storage keeps it as it is, where a bare closure
  /// would be wrapped in one more conversion thunk at each access.
  private struct Clock {
    let now: @Sendable () -> Date
  }

  /// Creates an empty database.
  ///
  /// - Parameters:
  ///   - rules: The security rules; ``DatasyncRules/open`` (the default) lets everyone read and
  ///     write everything.
  ///   - tokens: The identity each token stands for: a client that authenticates with a token
  ///     becomes that identity (``DatasyncAuthentication/admin`` bypasses every rule).
  public init(rules: DatasyncRules = .open, tokens: [String: DatasyncAuthentication] = [:]) {
    state = DatabaseState(rules: rules, tokens: tokens)
  }

  /// Creates a database with its state (a durable one: see `init(path:rules:tokens:)`).
  init(state: DatabaseState) {
    self.state = state
  }

  /// The file every write is committed to, nil for a database in memory.
  var store: DurableTreeStore? { lock.withLock { state.store } }

  /// The security rules every read and write of a client is checked against.
  ///
  /// Setting them checks every live listen again: those that lost read access are revoked
  /// (their subscriptions complete as revoked with `permissionDenied`). Writes and reads already
  /// answered are not undone.
  public var rules: DatasyncRules {
    get { lock.withLock { state.rules } }
    set {
      let now = currentDate()
      withState { $0.setRules(newValue, now: now) }
    }
  }

  /// Makes a token stand for an identity, or revokes it.
  ///
  /// Clients authenticated with the token take the new identity at once: with `nil`, they
  /// become unauthenticated. Either way their live listens are checked again, and those that
  /// lost read access are revoked. A revoked token no longer authenticates anyone.
  ///
  /// - Parameters:
  ///   - authentication: The identity the token stands for from now on; nil revokes the token.
  ///   - token: The token, as clients present it.
  public func setAuthentication(_ authentication: DatasyncAuthentication?, forToken token: String) {
    let now = currentDate()
    withState { $0.setAuthentication(authentication, forToken: token, now: now) }
  }

  /// The current value at an absolute path (a snapshot that later writes do not change).
  func value(at path: DatasyncPath) -> JSONValue {
    lock.withLock { state.root.value(at: path.keys) }
  }

  /// The back end's current time, read from its clock outside the lock.
  private func currentDate() -> Date {
    guard hasTestClock.load(ordering: .acquiring), let clock = testClock.withLock({ $0 }) else {
      return Date()
    }
    return clock.now()
  }

  /// Runs `change` on the state with the lock held, then, with the lock released, enqueues the
  /// drains that its deliveries scheduled.
  private func withState(_ change: (inout DatabaseState) -> Void) {
    let woken = lock.withLock { () -> [EmbeddedConnection] in
      change(&state)
      defer { connectionsToWake = [] }
      return connectionsToWake
    }
    for connection in woken { connection.enqueueDrain() }
  }

  /// Enqueues the drain of a connection once the lock is released: called by the connection's
  /// delivery, which runs with the lock held, when its drain must be scheduled.
  func wakeAfterUnlocking(_ connection: EmbeddedConnection) {
    connectionsToWake.append(connection)
  }

  // MARK: Connections

  /// Connects a client: from now on it receives messages through `deliver`, unauthenticated.
  /// A client in this process that keeps the data it listens to in memory passes
  /// `sharingTree`: the writes it listens to then come with the new value of its listen
  /// (``BackEndMessage/changedSharing(_:listen:value:)``), which shares this database's storage.
  func attach(
    _ client: ObjectIdentifier, sharingTree: Bool = false,
    deliver: @escaping @Sendable (BackEndMessage) -> Void
  ) {
    let offset = currentDate().timeIntervalSinceNow
    withState {
      $0.attach(client, sharesTree: sharingTree, deliver: deliver, clockOffset: offset)
    }
  }

  /// Disconnects a client: its listens and its authentication are dropped and its disconnection
  /// writes are run.
  func detach(_ client: ObjectIdentifier) {
    let now = currentDate()
    withState { $0.detach(client, now: now) }
  }

  /// Handles one request of a connected client; requests of detached clients are ignored.
  func handle(_ request: ClientRequest, from client: ObjectIdentifier) {
    let now = currentDate()
    withState { $0.handle(request, from: client, now: now) }
  }

  // MARK: Test hooks

  /// Replaces the back end's clock (a test hook standing for a back end whose clock differs from
  /// the client's): it resolves ``WebcomDate/backEndCurrentDate``, gives `now` in rules and the
  /// clock offset announced to clients when they connect.
  func setClock(_ clock: @escaping @Sendable () -> Date) {
    testClock.withLock { $0 = Clock(now: clock) }
    hasTestClock.store(true, ordering: .releasing)
  }

  /// Stops serving the listens at or below a path, whatever the rules (a test hook standing for
  /// a lost read permission): their clients get a revocation with `error`.
  func revokeListens(at path: DatasyncPath, error: WebcomError) {
    withState { $0.revokeListens(at: path, error: error) }
  }
}
