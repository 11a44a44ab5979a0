import Foundation

/// The rules applied to a client's writes, and what a client is told of data it may not read.
extension DatabaseState {
  /// The tree after a write (its server values already resolved), the write to announce and the
  /// value a set replaced (``WriteOperation/applyingAuthoritatively(to:)``), if the rules allow
  /// the write for a client authenticated as `auth`.
  ///
  /// A transaction's compare-and-set needs read access as well: it compares the current value,
  /// so its outcome would tell it. The write's own failures (an increment of something else than
  /// a number, a compare-and-set whose value changed) are reported only when the rules allow the
  /// write as if it succeeded, so that they tell nothing to a client that may not write there.
  ///
  /// - Throws: `permissionDenied` naming the path; then the write's own failures.
  func authorizedApplication(
    of write: WriteOperation, auth: DatasyncAuthentication?, now: Date
  ) throws(WebcomError) -> (tree: JSONValue, announced: WriteOperation, replaced: JSONValue?) {
    if case .compareAndSet(let path, _, _) = write,
      let denied = rules.checkRead(path, auth: auth, root: root, now: now)
    {
      throw WebcomError(
        .permissionDenied,
        "the transaction at \(WebcomKey.quoted(path.string)) is denied: it compares the current "
          + "value, which it may not read (\(denied.message))")
    }
    let applied: (tree: JSONValue, announced: WriteOperation, replaced: JSONValue?)
    do {
      applied = try write.applyingAuthoritatively(to: root)
    } catch {
      try checkWrite(
        write, producing: write.treeIfItSucceeded(on: root), isApplied: false, auth: auth, now: now)
      throw error
    }
    try checkWrite(
      applied.announced, producing: applied.tree, isApplied: true, auth: auth, now: now)
    return applied
  }

  /// Checks a write registered for a disconnection against the rules and the data now (with
  /// its server values resolved now): only a refusal by the rules refuses it, since the write's
  /// own failures depend on the data when it runs.
  ///
  /// - Throws: `permissionDenied` naming the path.
  func authorizeRegistration(
    of write: WriteOperation, auth: DatasyncAuthentication?, now: Date
  ) throws(WebcomError) {
    do {
      _ = try authorizedApplication(
        of: write.resolvingServerValues(now: now), auth: auth, now: now)
    } catch  where error.code == .permissionDenied {
      throw error
    } catch {}
  }

  /// What the acknowledgement of a client's write announces: the write as applied, except the
  /// result of an increment the client may not read (it would tell the value before it).
  func acknowledgement(
    of write: WriteOperation, announced: WriteOperation, to session: Session, now: Date
  ) -> WriteOperation? {
    guard case .increment(let path, _, _) = write else { return announced }
    return rules.canRead(path, auth: session.auth, root: root, now: now) ? announced : nil
  }

  /// The value at a path if the client may read it (sent with a rejected write so that the
  /// client's cache catches up), else nil.
  func readableValue(at path: DatasyncPath, auth: DatasyncAuthentication?, now: Date)
    -> JSONValue?
  {
    rules.canRead(path, auth: auth, root: root, now: now) ? root.value(at: path.keys) : nil
  }

  /// Checks the rules for a write that changes the tree into `newRoot`.
  ///
  /// - Parameter isApplied: Whether `write` is the write as applied (the `announced` write of
  ///   ``WriteOperation/applyingAuthoritatively(to:)``): a set then holds the new value at its
  ///   path, which the check need not look up.
  private func checkWrite(
    _ write: WriteOperation, producing newRoot: JSONValue, isApplied: Bool,
    auth: DatasyncAuthentication?, now: Date
  ) throws(WebcomError) {
    // Spares finding the written paths when the rules grant every write.
    guard !rules.grantsEveryWrite else { return }
    let denied =
      if isApplied, case .set(let path, let value) = write {
        rules.checkWrite(
          setting: value, at: path, auth: auth, oldRoot: root, newRoot: newRoot, now: now)
      } else {
        rules.checkWrite(
          at: write.writtenPaths, auth: auth, oldRoot: root, newRoot: newRoot, now: now)
      }
    if let denied { throw denied }
  }
}

extension WriteOperation {
  /// The locations the write replaces: its node, or each location a merge writes.
  var writtenPaths: [DatasyncPath] {
    guard case .merge(let path, let entries) = self else { return [path] }
    return entries.map { $0.path(under: path) }
  }

  /// The tree the write would give if it succeeded: a compare-and-set writing its value, an
  /// increment of a null node (the write its rules are checked as when it fails).
  fileprivate func treeIfItSucceeded(on tree: JSONValue) -> JSONValue {
    switch self {
    case .set, .merge, .compareAndSet:
      return applyingOptimistically(to: tree)
    case .increment(let path, let start, let step):
      return tree.setting(Self.incremented(.null, start: start, step: step) ?? .null, at: path.keys)
    }
  }
}
