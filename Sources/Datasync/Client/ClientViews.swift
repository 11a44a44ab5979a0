/// The views of a client: one per (path, constraint), shared by the subscriptions made on it, and
/// the events they raise.
///
/// Event order, for one change of the visible tree: first the child events of every view, then
/// the value events, each pass over the views deeper first, then by creation. A subscriber that
/// closes a batch at a value event has therefore seen every child event of the change, whatever
/// the views of other subscriptions. Within a view, child events come as removals, additions,
/// changes (see ``ViewDiff``).
struct ClientViews {
  struct Key: Hashable {
    let path: DatasyncPath
    let constraint: DatasyncChildrenConstraint
  }

  /// A subscription as its view knows it.
  struct Subscriber {
    let identifier: SubscriptionIdentifier
    let eventType: DatasyncEventType
    /// The order of registration, which orders replays.
    let sequence: UInt64
    /// Whether its child events carry the key of the previous child (see
    /// ``DeliveryConflation/carriesPreviousKeys``).
    let needsPreviousKeys: Bool

    func wants(_ single: DatasyncEventType) -> Bool { eventType.contains(single) }

    /// Whether the subscriber asked for acknowledgement events (of the value or of children).
    var wantsAcknowledgements: Bool {
      wants(.valueAcknowledgement) || wants(.childAcknowledgement)
    }
  }

  /// The subscriptions sharing one (path, constraint).
  struct View {
    let path: DatasyncPath
    let constraint: DatasyncChildrenConstraint
    /// The order of creation, which orders the events of views of the same depth.
    let sequence: UInt64
    var subscribers: [Subscriber] = []
    /// Whether the view has the complete data of its node and raises events; it stays complete.
    var isComplete: Bool
  }

  private var views: [Key: View] = [:]
  /// The keys of the views at each path: a change looks only at the views at, above or below
  /// what it changed, however many others there are.
  private var keysByPath = PathTrie<[Key]>()
  /// The number of views that are not complete yet: when none is, no write needs to look for
  /// views it completes.
  private var incompleteCount = 0
  private var keyOfSubscription: [SubscriptionIdentifier: Key] = [:]
  /// The number of subscribers, in every view, that asked for acknowledgement events: a write
  /// looks for the views to acknowledge only when there are some.
  private var acknowledgementSubscriberCount = 0

  var isEmpty: Bool { views.isEmpty }

  /// Whether some view is not complete yet (see ``complete(atOrBelow:where:cache:into:)``).
  var hasIncompleteViews: Bool { incompleteCount > 0 }

  /// Whether a view exists for the key.
  func contains(_ key: Key) -> Bool { views[key] != nil }

  /// Adds a subscriber to the view of `key`, creating the view (ordered by the subscriber's
  /// sequence, complete when `isCompleteIfNew`) when it is the first. Returns the view.
  mutating func add(_ subscriber: Subscriber, to key: Key, isCompleteIfNew: Bool) -> View {
    keyOfSubscription[subscriber.identifier] = key
    if subscriber.wantsAcknowledgements { acknowledgementSubscriberCount += 1 }
    if views[key] == nil {
      views[key] = View(
        path: key.path, constraint: key.constraint, sequence: subscriber.sequence,
        isComplete: isCompleteIfNew)
      keysByPath[key.path, default: []].append(key)
      if !isCompleteIfNew { incompleteCount += 1 }
    }
    views[key]?.subscribers.append(subscriber)
    return views[key]!
  }

  /// Removes a subscriber; returns the key of its view when the view went with it.
  mutating func remove(_ identifier: SubscriptionIdentifier) -> Key? {
    guard let key = keyOfSubscription.removeValue(forKey: identifier) else { return nil }
    if let index = views[key]?.subscribers.firstIndex(where: { $0.identifier == identifier }),
      let removed = views[key]?.subscribers.remove(at: index), removed.wantsAcknowledgements
    {
      acknowledgementSubscriberCount -= 1
    }
    guard views[key]?.subscribers.isEmpty == true else { return nil }
    removeView(key)
    return key
  }

  /// Removes the view of `key` (there is one) from the views and the index.
  private mutating func removeView(_ key: Key) {
    if views.removeValue(forKey: key)?.isComplete == false { incompleteCount -= 1 }
    let others = keysByPath[key.path]?.filter { $0 != key } ?? []
    keysByPath[key.path] = others.isEmpty ? nil : others
  }

  /// The keys of the views at or below a path, in no particular order.
  private func keys(atOrBelow path: DatasyncPath) -> [Key] {
    var keys: [Key] = []
    keysByPath.forEachValue(atOrBelow: path) { keys += $0 }
    return keys
  }

  /// Up to how many views a change looks at each of them rather than finding those it may have
  /// touched in ``keysByPath``: telling an untouched view apart costs less than a search.
  private static var scannedViewCount: Int { PathTrie<[Key]>.linearLimit }

  /// The position of each view whose data `effects` may have changed, once: with few views,
  /// every view; else those at or above the path of an effect, and those below it inside what it
  /// changed (``ViewRelevance`` tells which were touched).
  ///
  /// Made without a closure over the views or the effects, which would copy them.
  private func positions(touchedBy effects: some Collection<ChangeEffect>) -> InlineFirstList<
    Dictionary<Key, View>.Index
  > {
    var positions = InlineFirstList<Dictionary<Key, View>.Index>()
    guard views.count > Self.scannedViewCount else {
      var position = views.startIndex
      while position != views.endIndex {
        positions.append(position)
        position = views.index(after: position)
      }
      return positions
    }
    var seen = Set<Key>()
    for effect in effects {
      keysByPath.forEachValue(atOrAround: effect.path, inChildren: effect.children) { keys in
        for key in keys where effects.count == 1 || seen.insert(key).inserted {
          if let position = views.index(forKey: key) { positions.append(position) }
        }
      }
    }
    return positions
  }

  /// Removes the views at or below a path; returns their subscribers, views in creation order.
  mutating func removeViews(atOrBelow path: DatasyncPath) -> [SubscriptionIdentifier] {
    let removed = keys(atOrBelow: path).compactMap { key in views[key].map { (key, $0) } }
      .sorted { $0.1.sequence < $1.1.sequence }
    var identifiers: [SubscriptionIdentifier] = []
    for (key, view) in removed {
      removeView(key)
      for subscriber in view.subscribers {
        keyOfSubscription[subscriber.identifier] = nil
        if subscriber.wantsAcknowledgements { acknowledgementSubscriberCount -= 1 }
        identifiers.append(subscriber.identifier)
      }
    }
    return identifiers
  }

  /// Marks the incomplete views at or below `path` for which `isNowComplete` holds as complete,
  /// and replays their data to their subscribers, in registration order.
  mutating func complete(
    atOrBelow path: DatasyncPath, where isNowComplete: (View) -> Bool = { _ in true },
    cache: ClientCache, into effects: inout [ClientEffect]
  ) {
    guard incompleteCount > 0 else { return }
    let completed = keys(atOrBelow: path).compactMap { key in
      views[key].flatMap { !$0.isComplete && isNowComplete($0) ? (key, $0) : nil }
    }
    guard !completed.isEmpty else { return }
    var replays: [(View, Subscriber)] = []
    for (key, view) in completed {
      views[key]?.isComplete = true
      incompleteCount -= 1
      replays += view.subscribers.map { (view, $0) }
    }
    for (view, subscriber) in replays.sorted(by: { $0.1.sequence < $1.1.sequence }) {
      Self.replay(view, to: subscriber, cache: cache, into: &effects)
    }
  }

  /// The events that show a subscriber the current data of its view: the value, or one
  /// addition per child in key order.
  static func replay(
    _ view: View, to subscriber: Subscriber, cache: ClientCache,
    into effects: inout [ClientEffect]
  ) {
    let window = ChildrenWindow(node: cache.value(at: view.path), constraint: view.constraint)
    let records: [EventRecord]
    if subscriber.wants(.valueChange) {
      records = [
        EventRecord(
          eventType: .valueChange, path: view.path, value: window.value, previousKey: nil,
          acked: !cache.pending.overlaps(view.path)
        ).forSubscriber(subscriber)
      ]
    } else if subscriber.wants(.childAddition) {
      records = ViewDiff.replay(of: window).map { record(for: $0, in: view, cache: cache) }
    } else {
      return
    }
    if !records.isEmpty { effects.append(.deliver(records, to: subscriber.identifier)) }
  }

  /// The complete views a change touched, with what it touched, in event order (deeper first,
  /// then by creation); only views for which `include` holds are considered, and the children
  /// touched are named only for those for which `namesChildren` holds.
  private func touched(
    by effects: [ChangeEffect], include: (View) -> Bool, namesChildren: (View) -> Bool
  ) -> [(View, ViewRelevance)] {
    var touched: [(View, ViewRelevance)] = []
    for position in positions(touchedBy: effects) {
      let view = views.values[position]
      guard view.isComplete, include(view) else { continue }
      let relevance = ViewRelevance(
        of: effects, at: view.path, namesChildren: namesChildren(view))
      if case .none = relevance { continue }
      touched.append((view, relevance))
    }
    guard touched.count > 1 else { return touched }
    return touched.sorted { Self.precedes($0.0, $1.0) }
  }

  /// The order of views' events: deeper paths first, then by creation.
  private static func precedes(_ lhs: View, _ rhs: View) -> Bool {
    lhs.path.depth != rhs.path.depth
      ? lhs.path.depth > rhs.path.depth : lhs.sequence < rhs.sequence
  }

  /// The events of a change of the visible tree (from `change.old` to `cache.visible`) on every
  /// complete view it touched.
  func events(of change: ClientCache.Change, cache: ClientCache, into effects: inout [ClientEffect])
  {
    guard !views.isEmpty else { return }
    let changed = change.effects(to: cache.visible)
    guard !changed.isEmpty else { return }
    let positions = positions(touchedBy: changed)
    guard positions.count > 1 else {
      // One view, the usual case: its events, children first, straight from its diff.
      guard let position = positions.first,
        let (view, diff) = diff(at: position, changed: changed, change: change, cache: cache)
      else { return }
      Self.appendChildEvents(of: diff, in: view, change: change, cache: cache, into: &effects)
      Self.appendValueEvents(of: diff, in: view, change: change, cache: cache, into: &effects)
      return
    }
    // Every view touched is diffed once; the diffs are then put in event order (see
    // `touched(by:include:namesChildren:)`): the child events of all, then the value events.
    var diffs: [(view: View, diff: ViewDiff)] = []
    for position in positions {
      if let touched = diff(at: position, changed: changed, change: change, cache: cache) {
        diffs.append(touched)
      }
    }
    diffs.sort { Self.precedes($0.view, $1.view) }
    for (view, diff) in diffs {
      Self.appendChildEvents(of: diff, in: view, change: change, cache: cache, into: &effects)
    }
    for (view, diff) in diffs {
      Self.appendValueEvents(of: diff, in: view, change: change, cache: cache, into: &effects)
    }
  }

  /// The view at `position` and its diff, when it is complete and the change touched what it
  /// shows. The view is read once: each read of `views.values` copies it.
  private func diff(
    at position: Dictionary<Key, View>.Index, changed: ChangeEffects, change: ClientCache.Change,
    cache: ClientCache
  ) -> (view: View, diff: ViewDiff)? {
    let view = views.values[position]
    guard view.isComplete,
      let diff = Self.diff(of: view, changed: changed, old: change.old, new: cache.visible)
    else { return nil }
    return (view, diff)
  }

  /// Tells the subscribers that asked for acknowledgements which data the back end confirmed: one
  /// child acknowledgement per confirmed child inside the window of every view the write touched,
  /// then one value acknowledgement per view, in event order.
  func acknowledgements(
    of write: WriteOperation, cache: ClientCache, into effects: inout [ClientEffect]
  ) {
    guard acknowledgementSubscriberCount > 0 else { return }
    let touchedViews = touched(
      by: write.footprints.map(ChangeEffect.init(footprint:)),
      include: { view in view.subscribers.contains(where: \.wantsAcknowledgements) },
      namesChildren: { _ in true })
    var valueAcknowledgements: [(View, EventRecord)] = []
    for (view, relevance) in touchedViews {
      let window = ChildrenWindow(node: cache.value(at: view.path), constraint: view.constraint)
      let confirmed: [(key: WebcomKey, value: JSONValue)]
      switch relevance {
      case .none: continue
      case .whole, .someChildren: confirmed = window.elements.map { ($0.key, $0.value) }
      case .children(let keys):
        confirmed = keys.sorted().compactMap { key in window.value(of: key).map { (key, $0) } }
      }
      let records = confirmed.map { key, value in
        let path = view.path.child(key)
        return EventRecord(
          eventType: .childAcknowledgement, path: path, value: value,
          previousKey: window.previousKey(of: key), acked: !cache.pending.overlaps(path))
      }
      for subscriber in view.subscribers
      where subscriber.wants(.childAcknowledgement) && !records.isEmpty {
        effects.append(.deliver(records, to: subscriber.identifier))
      }
      valueAcknowledgements.append(
        (
          view,
          EventRecord(
            eventType: .valueAcknowledgement, path: view.path, value: window.value,
            previousKey: nil, acked: !cache.pending.overlaps(view.path))
        ))
    }
    for (view, record) in valueAcknowledgements {
      for subscriber in view.subscribers where subscriber.wants(.valueAcknowledgement) {
        effects.append(.deliver([record.forSubscriber(subscriber)], to: subscriber.identifier))
      }
    }
  }
}
