/// What a client knows of the back end's tree: the data the back end sent, the local writes it
/// has not acknowledged yet, and the visible tree (the former with the latter applied in order).
struct ClientCache {
  /// A change of the visible tree, for event generation: the tree before it, and where it may
  /// have modified the tree.
  struct Change {
    /// Where a change may have modified the tree, or what it modified when applying it already
    /// told.
    enum Extent {
      /// The places the change may have modified, whose effects are found by comparing the
      /// trees there (see ``ChangeEffect/effects(of:from:to:)``).
      case footprints([ChangeFootprint])
      /// What the change modified.
      case effects(ChangeEffects)
    }

    let old: JSONValue
    let extent: Extent
    /// Whether the change is a local write, pending from now on: every path whose data it
    /// touched is at, above or below that write's path, so a pending write overlaps it and the
    /// events about that data are unacknowledged without asking ``PendingWrites/overlaps(_:)``
    /// (a window's events about children entering or leaving it still ask).
    let isLocalWrite: Bool

    init(old: JSONValue, extent: Extent, isLocalWrite: Bool = false) {
      self.old = old
      self.extent = extent
      self.isLocalWrite = isLocalWrite
    }

    /// What the change modified, the tree being `new` after it.
    func effects(to new: JSONValue) -> ChangeEffects {
      switch extent {
      case .footprints(let footprints):
        .list(ChangeEffect.effects(of: footprints, from: old, to: new))
      case .effects(let effects): effects
      }
    }
  }

  /// The data as the back end sent it.
  private var server: JSONValue = .null
  /// The data as the application sees it: `server` with the pending writes applied.
  private(set) var visible: JSONValue = .null
  private(set) var pending = PendingWrites()

  /// The visible value at a path (null when nothing is known).
  func value(at path: DatasyncPath) -> JSONValue {
    visible.value(at: path.keys)
  }

  /// Applies a local write on top of the pending ones, as the client expects the back end to.
  mutating func applyLocal(_ operation: WriteOperation, identifier: RequestIdentifier) -> Change {
    let old = visible
    pending.append(PendingWrites.Write(identifier: identifier, operation: operation))
    switch operation {
    case .set(let path, let value), .compareAndSet(let path, _, let value):
      // The value replaced is found while writing: comparing it with the value written gives
      // the effect without looking both up again.
      let (result, replaced) = visible.settingReturningReplaced(value, at: path.keys)
      visible = result
      return Change(
        old: old,
        extent: .effects(ChangeEffect.effects(ofSetAt: path, replacing: replaced, with: value)),
        isLocalWrite: true)
    case .merge, .increment:
      visible = operation.applyingOptimistically(to: visible)
      return Change(old: old, extent: .footprints(operation.footprints), isLocalWrite: true)
    }
  }

  /// Applies data from the back end under the pending writes: `operation`, or, when the back
  /// end gives it (`shared`), its new value at a listened path that covers the operation, which
  /// shares the back end's storage, with the value a set replaced when the back end gives it.
  mutating func applyServer(
    _ operation: WriteOperation,
    shared: (listen: DatasyncPath, value: JSONValue, replaced: JSONValue?)? = nil
  ) -> Change {
    let old = visible
    if let shared {
      server = server.setting(shared.value, at: shared.listen.keys)
    } else {
      server = operation.applyingOptimistically(to: server)
    }
    if pending.isEmpty {
      visible = server
      let known = shared.flatMap { shared in
        Self.effects(of: operation, on: old, replaced: shared.replaced)
      }
      return Change(
        old: old, extent: known.map { .effects($0) } ?? .footprints(operation.footprints))
    }
    visible = pending.applied(to: server)
    return Change(old: old, extent: .footprints(operation.footprints + pending.footprints))
  }

  /// Removes an acknowledged write from the pending ones and applies what the back end wrote
  /// (`announced`). Returns nil when the write was not pending, else the acknowledged write and
  /// the change of the visible tree when the back end's result differs from the local one
  /// (server values, increments, merges into a node that changed kind).
  mutating func acknowledge(_ identifier: RequestIdentifier, announced: WriteOperation?)
    -> (acknowledged: WriteOperation, change: Change?)?
  {
    let isFirst = pending.firstIdentifier == identifier
    guard let write = pending.remove(identifier) else { return nil }
    // Made once: a queued push keeps its path in parts (see `PendingWrites.Write`).
    let operation = write.takeOperation()
    guard isFirst else {
      if let announced { server = announced.applyingOptimistically(to: server) }
      return (operation, reapplyPending(footprints: operation.footprints))
    }
    if Self.isSameSet(announced, operation) {
      // The back end wrote what the client expected: the visible tree already shows it. When no
      // other write is pending, the visible tree is the server's with this write applied, so it
      // is taken as it is instead of being made again.
      server = pending.isEmpty ? visible : operation.applyingOptimistically(to: server)
      return (operation, nil)
    }
    let footprints = operation.footprints
    let expected = operation.applyingOptimistically(to: server)
    if let announced { server = announced.applyingOptimistically(to: server) }
    // Only the written parts can differ: compare those, never the untouched data around them.
    guard !ChangeEffect.effects(of: footprints, from: expected, to: server).isEmpty else {
      return (operation, nil)
    }
    return (operation, reapplyPending(footprints: footprints))
  }

  /// The effects of a set on the tree `old`: the value written is the new value at its path, the
  /// value it replaced is `replaced` when the back end gave it, else found with one look-up in
  /// `old`. Nil for other operations.
  private static func effects(of operation: WriteOperation, on old: JSONValue, replaced: JSONValue?)
    -> ChangeEffects?
  {
    guard case .set(let path, let value) = operation else { return nil }
    assert(
      replaced == nil || replaced == old.value(at: path.keys),
      "the back end's replaced value at \(path) differs from the client's")
    return ChangeEffect.effects(
      ofSetAt: path, replacing: replaced ?? old.value(at: path.keys), with: value)
  }

  /// Whether two operations are the same `set` (same path, same value), so that they give the
  /// same tree from the same tree.
  private static func isSameSet(_ lhs: WriteOperation?, _ rhs: WriteOperation) -> Bool {
    guard case .set(let leftPath, let leftValue)? = lhs,
      case .set(let rightPath, let rightValue) = rhs
    else { return false }
    return leftPath == rightPath && leftValue == rightValue
  }

  /// Removes a rejected write from the pending ones, taking the back end's current value at its
  /// path when known; nil when the write was not pending.
  mutating func reject(_ identifier: RequestIdentifier, current: JSONValue?) -> Change? {
    guard let write = pending.remove(identifier) else { return nil }
    if let current { server = server.setting(current, at: write.operation.path.keys) }
    return reapplyPending(footprints: write.operation.footprints)
  }

  /// Drops all the back end's data, when no write is pending: O(1), where ``forget(_:)`` copies
  /// a path.
  mutating func forgetAll() {
    assert(pending.isEmpty, "forgetting the data under pending writes")
    server = .null
    visible = .null
  }

  /// Drops the back end's data at a path (the pending writes stay), raising no event. O(depth)
  /// when no pending write overlaps the path, else O(pending writes); with none pending, the
  /// visible tree is the server's (the pending writes applied to it: none) and is not made again.
  mutating func forget(_ path: DatasyncPath) {
    server = server.setting(.null, at: path.keys)
    visible =
      pending.isEmpty || pending.overlaps(path)
      ? pending.applied(to: server) : visible.setting(.null, at: path.keys)
  }

  private mutating func reapplyPending(footprints: [ChangeFootprint]) -> Change {
    let old = visible
    visible = pending.applied(to: server)
    return Change(old: old, extent: .footprints(footprints + pending.footprints))
  }
}
