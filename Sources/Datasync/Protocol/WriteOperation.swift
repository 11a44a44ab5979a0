import Foundation

/// A write as it travels from a client to a back end.
///
/// The same operation is applied twice: optimistically by the client on its pending-write overlay
/// (``applyingOptimistically(to:)``), and authoritatively by the back end
/// (``applyingAuthoritatively(to:now:)``), which may reject it.
package enum WriteOperation: Sendable {
  /// Replaces the value at the path (null deletes).
  case set(DatasyncPath, JSONValue)
  /// Writes each entry at its path below the node, as `set` would (null deletes), keeping
  /// everything else; the entries never overlap.
  case merge(DatasyncPath, [MergeEntry])
  /// Adds `step` to the number at the path, starting from `start` when the path is null.
  case increment(DatasyncPath, start: Double, step: Double)
  /// Sets `value` at the path only if the current value there equals `expected`.
  ///
  /// Boxed: the only case with two values, it would otherwise make every operation (and every
  /// pending write and queued request holding one) 24 bytes larger.
  indirect case compareAndSet(DatasyncPath, expected: JSONValue, value: JSONValue)

  /// The node the operation writes at.
  var path: DatasyncPath {
    switch self {
    case .set(let path, _), .merge(let path, _), .increment(let path, _, _),
      .compareAndSet(let path, _, _):
      return path
    }
  }

  /// What the operation may change, for event computation: the whole node, or for a merge the
  /// children it names, grouped by parent (one footprint per parent of written locations).
  var footprints: [ChangeFootprint] {
    guard case .merge(let path, let entries) = self else {
      return [ChangeFootprint(path: path, children: nil)]
    }
    if entries.allSatisfy({ $0.keys.count == 1 }) {
      return [ChangeFootprint(path: path, children: entries.map { $0.keys[0] })]
    }
    var parents: [DatasyncPath] = []
    var children: [DatasyncPath: [WebcomKey]] = [:]
    for entry in entries {
      let parent = DatasyncPath(validatedKeys: path.keys + entry.keys.dropLast())
      if children[parent] == nil { parents.append(parent) }
      children[parent, default: []].append(entry.keys[entry.keys.count - 1])
    }
    return parents.map { ChangeFootprint(path: $0, children: children[$0]) }
  }

  /// Calls `body` with each of ``footprints``, in order, without making their list for an
  /// operation other than a merge (its one footprint is the whole node at its path).
  func forEachFootprint(_ body: (ChangeFootprint) throws -> Void) rethrows {
    guard case .merge = self else { return try body(ChangeFootprint(path: path, children: nil)) }
    for footprint in footprints { try body(footprint) }
  }

  /// Checks that every location the operation writes stays within the limits of paths: at most
  /// 32 levels and 768 UTF-8 bytes, measured on the full stored path of every value written.
  /// O(size of the written values).
  ///
  /// - Throws: ``WebcomError`` with code `invalidPath` naming a written location (a node, a
  ///   merge key) over a limit, `invalidValue` naming the path of a value's descendant over a
  ///   limit.
  func checkLimits() throws(WebcomError) {
    switch self {
    case .set(let path, let value), .compareAndSet(let path, _, let value):
      try path.checkLimits()
      try value.checkLimits(at: path)
    case .merge(let path, let entries):
      try path.checkLimits()
      for entry in entries {
        let location = entry.path(under: path)
        try location.checkLimits(writtenBy: "the merge key \(WebcomKey.quoted(entry.relativePath))")
        try entry.value.checkLimits(at: location)
      }
    case .increment(let path, _, _):
      try path.checkLimits()
    }
  }

  /// Whether the operation writes a server-value placeholder, which the client resolves before
  /// applying the operation locally (see ``resolvingServerValues(now:)``).
  var containsServerValues: Bool {
    switch self {
    case .set(_, let value), .compareAndSet(_, _, let value): value.containsServerValues
    case .merge(_, let entries): entries.contains { $0.value.containsServerValues }
    case .increment: false
    }
  }

  /// Calls `body` with the operation, its server values resolved at `now` (read only then) when
  /// it has some: an operation without any is handed over as it is, without the copy that
  /// ``resolvingServerValues(now:)`` makes.
  func withServerValuesResolved<Result, Failure: Error>(
    now: @autoclosure () -> Date, _ body: (WriteOperation) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard containsServerValues else { return try body(self) }
    return try body(resolvingServerValues(now: now()))
  }

  /// The operation with its server values (``WebcomDate/backEndCurrentDate``) replaced by `now`.
  func resolvingServerValues(now: Date) -> WriteOperation {
    switch self {
    case .set(let path, let value):
      return .set(path, value.resolvingServerValues(now: now))
    case .merge(let path, let entries):
      return .merge(
        path,
        entries.map { MergeEntry(keys: $0.keys, value: $0.value.resolvingServerValues(now: now)) })
    case .increment:
      return self
    case .compareAndSet(let path, let expected, let value):
      return .compareAndSet(path, expected: expected, value: value.resolvingServerValues(now: now))
    }
  }

  /// The tree with the operation applied as the client expects the back end to apply it.
  ///
  /// An increment of a value that is not a number (or whose sum is not finite) and a
  /// compare-and-set are applied as best guesses: the former leaves the tree unchanged, the latter
  /// sets its value.
  func applyingOptimistically(to tree: JSONValue) -> JSONValue {
    switch self {
    case .set(let path, let value), .compareAndSet(let path, _, let value):
      return tree.setting(value, at: path.keys)
    case .merge(let path, let entries):
      return Self.merging(entries, at: path, into: tree)
    case .increment(let path, let start, let step):
      guard let sum = Self.incremented(tree.value(at: path.keys), start: start, step: step),
        Self.isFinite(sum)
      else {
        return tree
      }
      return tree.setting(sum, at: path.keys)
    }
  }

  /// The tree with the operation applied by the back end, the write to announce to listeners,
  /// and, when the write announced is a set, the value it replaced at its node (null where
  /// absent), known while writing: listeners that share the tree then need no look-up of it.
  ///
  /// Increment server values in the written data (``JSONValue/serverIncrementStep``) are
  /// resolved against the tree; the announced write carries their results.
  ///
  /// - Throws: `notANumber` for an increment of a value that is not a number, `invalidValue` for
  ///   an increment whose sum is not finite (an increment operation or an increment server
  ///   value), `transactionAborted` with the current value for a failed compare-and-set.
  func applyingAuthoritatively(to tree: JSONValue) throws(WebcomError) -> (
    tree: JSONValue, announced: WriteOperation, replaced: JSONValue?
  ) {
    switch self {
    case .set(let path, let value):
      guard value.containsServerIncrements else {
        let (result, replaced) = tree.settingReturningReplaced(value, at: path.keys)
        return (result, self, replaced)
      }
      let current = tree.value(at: path.keys)
      let resolved = try value.resolvingServerIncrements(against: current)
      return (tree.setting(resolved, at: path.keys), .set(path, resolved), current)
    case .merge(let path, var entries):
      var resolvedAny = false
      for (index, entry) in entries.enumerated() where entry.value.containsServerIncrements {
        let current = tree.value(at: path.keys + entry.keys)
        entries[index] = MergeEntry(
          keys: entry.keys, value: try entry.value.resolvingServerIncrements(against: current))
        resolvedAny = true
      }
      let announced = resolvedAny ? WriteOperation.merge(path, entries) : self
      return (Self.merging(entries, at: path, into: tree), announced, nil)
    case .increment(let path, let start, let step):
      let current = tree.value(at: path.keys)
      guard let sum = Self.incremented(current, start: start, step: step) else {
        throw WebcomError(
          .notANumber,
          "cannot increment the value at \(path.string): it is \(current.kindDescription), not a number"
        )
      }
      guard Self.isFinite(sum) else {
        throw WebcomError(
          .invalidValue,
          "cannot increment the value at \(path.string) by \(step): the sum is not a finite number")
      }
      return (tree.setting(sum, at: path.keys), .set(path, sum), current)
    case .compareAndSet(let path, let expected, let value):
      let current = tree.value(at: path.keys)
      guard current == expected else {
        throw WebcomError(
          .transactionAborted, "the value at \(path.string) changed during the transaction")
      }
      let resolved =
        value.containsServerIncrements
        ? try value.resolvingServerIncrements(against: current) : value
      return (tree.setting(resolved, at: path.keys), .set(path, resolved), current)
    }
  }

  /// The tree with each entry set at its path below `path`, as `set` would set it.
  private static func merging(_ entries: [MergeEntry], at path: DatasyncPath, into tree: JSONValue)
    -> JSONValue
  {
    var node = tree.value(at: path.keys)
    for entry in entries {
      node = node.setting(entry.value, at: entry.keys)
    }
    return tree.setting(node, at: path.keys)
  }

  /// `value + step` (or `start + step` for null), integer when all three are integers and the sum
  /// fits in `Int64`, else a double (as hosted databases do past the integer range; it may be
  /// infinite); nil when `value` is not a number.
  static func incremented(_ value: JSONValue, start: Double, step: Double) -> JSONValue? {
    let base: JSONValue
    switch value {
    case .null: base = Self.number(start)
    case .int, .double: base = value
    default: return nil
    }
    if case .int(let integer) = base, let integerStep = Self.exactInteger(step) {
      let (sum, overflow) = integer.addingReportingOverflow(integerStep)
      if !overflow { return .int(sum) }
    }
    switch base {
    case .int(let integer): return .double(Double(integer) + step)
    case .double(let double): return .double(double + step)
    default: return nil
    }
  }

  /// Whether a number can be stored: an integer, or a finite double.
  private static func isFinite(_ number: JSONValue) -> Bool {
    if case .double(let double) = number { return double.isFinite }
    return true
  }

  private static func number(_ double: Double) -> JSONValue {
    if let integer = exactInteger(double) { return .int(integer) }
    return .double(double)
  }

  private static func exactInteger(_ double: Double) -> Int64? {
    guard double.rounded() == double, abs(double) < 9.2e18 else { return nil }
    return Int64(double)
  }
}
