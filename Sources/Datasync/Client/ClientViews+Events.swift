/// The events of one view: the records its diff gives its subscribers, and whether they are
/// acknowledged.
extension ClientViews {
  /// The child events of a view's diff, for its subscribers of child events.
  static func appendChildEvents(
    of diff: borrowing ViewDiff, in view: borrowing View, change: ClientCache.Change,
    cache: ClientCache, into effects: inout [ClientEffect]
  ) {
    guard !diff.children.isEmpty else { return }
    // A window's events may name children the change did not touch (those that enter or leave
    // it): only a view of all the children has events on touched data alone.
    let isLocalWrite = change.isLocalWrite && view.constraint == .all
    var records: [EventRecord] = []
    records.reserveCapacity(diff.children.count)
    for child in diff.children {
      records.append(record(for: child, in: view, cache: cache, isLocalWrite: isLocalWrite))
    }
    for subscriber in view.subscribers where !subscriber.eventType.isValueType {
      // A subscriber of every kind of child event shares the records.
      let wanted =
        records.allSatisfy { subscriber.wants($0.eventType) }
        ? records : records.filter { subscriber.wants($0.eventType) }
      if !wanted.isEmpty { effects.append(.deliver(wanted, to: subscriber.identifier)) }
    }
  }

  /// The value event of a view's diff, for its subscribers of value events.
  static func appendValueEvents(
    of diff: borrowing ViewDiff, in view: borrowing View, change: ClientCache.Change,
    cache: ClientCache, into effects: inout [ClientEffect]
  ) {
    guard diff.valueChanged else { return }
    let record = EventRecord(
      eventType: .valueChange, path: view.path, value: diff.window.value, previousKey: nil,
      acked: isAcknowledged(view.path, cache: cache, isLocalWrite: change.isLocalWrite))
    for subscriber in view.subscribers where subscriber.wants(.valueChange) {
      effects.append(.deliver([record.forSubscriber(subscriber)], to: subscriber.identifier))
    }
  }

  /// The diff of a complete view for a change of the visible tree from `old` to `new` whose
  /// effects are `changed`; nil when the change did not touch what the view shows.
  static func diff(
    of view: borrowing View, changed: ChangeEffects, old: JSONValue, new: JSONValue
  ) -> ViewDiff? {
    // A view showing all the children to value subscribers only needs to know whether a child
    // changed, not which (see `ViewDiff.compute`).
    let needsChildChanges = view.subscribers.contains { !$0.eventType.isValueType }
    let needsPreviousKeys =
      needsChildChanges
      && view.subscribers.contains { !$0.eventType.isValueType && $0.needsPreviousKeys }
    if !needsChildChanges, view.constraint == .all, case .one(let effect) = changed,
      let values = effect.values, effect.path == view.path
    {
      // The change set the view's node whole, to a different value: that value is the event's.
      return ViewDiff(
        children: [], valueChanged: true,
        window: ChildrenWindow(node: values.after, constraint: .all))
    }
    let relevance = ViewRelevance(
      of: changed, at: view.path, namesChildren: view.constraint != .all || needsChildChanges)
    if case .none = relevance { return nil }
    var knownChild: ViewDiff.KnownChild?
    if needsChildChanges, case .one(let effect) = changed {
      knownChild = effect.childValues(under: view.path)
    }
    return ViewDiff.compute(
      path: view.path, constraint: view.constraint, relevance: relevance, old: old, new: new,
      needsChildChanges: needsChildChanges, needsPreviousKeys: needsPreviousKeys,
      knownChild: knownChild)
  }

  /// Whether the data at `path` is acknowledged (no pending write overlaps it), for an event of
  /// a change that touched `path`: never when the change is a local write (see
  /// ``ClientCache/Change/isLocalWrite``).
  static func isAcknowledged(_ path: DatasyncPath, cache: ClientCache, isLocalWrite: Bool)
    -> Bool
  {
    assert(!isLocalWrite || cache.pending.overlaps(path), "a local write does not overlap \(path)")
    return !isLocalWrite && !cache.pending.overlaps(path)
  }

  static func record(
    for change: ChildChange, in view: borrowing View, cache: ClientCache, isLocalWrite: Bool = false
  ) -> EventRecord {
    let eventType: DatasyncEventType
    switch change.kind {
    case .removal: eventType = .childRemoval
    case .addition: eventType = .childAddition
    case .change: eventType = .childChange
    }
    let path = view.path.child(change.key)
    return EventRecord(
      eventType: eventType, path: path, value: change.value, previousKey: change.previousKey,
      acked: isAcknowledged(path, cache: cache, isLocalWrite: isLocalWrite))
  }
}
