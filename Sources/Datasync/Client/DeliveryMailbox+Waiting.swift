extension DeliveryMailbox {
  /// What the mutex of a mailbox protects: the parcels waiting, in order, the phase, and where
  /// the parcels of the subscriptions that conflate are.
  struct Waiting {
    var parcels: [Parcel] = []
    /// The emptied array of the parcels a drain delivered, given back to become the waiting one
    /// at the next take: a post then appends without allocating.
    var spare: [Parcel] = []
    var phase = Phase.idle
    /// When the last drain ended or handed over to a successor, in uptime nanoseconds.
    var lastDrainEnd: UInt64 = 0
    /// The waiting parcel of each subscription that conflates, by subscription, among the first
    /// `indexedCount` parcels.
    var conflated: [ObjectIdentifier: ConflatedParcel] = [:]
    /// How many of `parcels` `conflated` covers: it is made only when a parcel that conflates
    /// comes while others wait, so a queue that keeps up pays nothing for conflation.
    var indexedCount = 0
    /// How many parcels of `parcels` conflation emptied.
    var emptiedCount = 0
  }

  /// Where the waiting parcel of a subscription that conflates is.
  struct ConflatedParcel {
    /// Its position in the waiting parcels.
    var position: Int
    /// The position of the latest event of each child in its records
    /// (``DeliveryConflation/latestEventPerChild``), made at the first merge, for the children
    /// that did not come in increasing key order: one that did comes after every key there, so
    /// it is new, and is appended without hashing. A child can then wait twice, once unhashed.
    var positionsByKey: [WebcomKey: Int]?
    /// The greatest key among its records and the position of its latest event, once made.
    var greatest: (key: WebcomKey, position: Int)?
  }
}

extension DeliveryMailbox.Waiting {
  /// The waiting parcels, taken by a drain: none waits afterwards (the spare array, if any,
  /// takes their place).
  mutating func takeParcels() -> [DeliveryMailbox.Parcel] {
    var taken: [DeliveryMailbox.Parcel] = []
    swap(&taken, &spare)
    swap(&taken, &parcels)
    if !conflated.isEmpty { conflated = [:] }
    indexedCount = 0
    emptiedCount = 0
    return taken
  }

  /// Keeps the array of a round's parcels, emptied once delivered, for the next take.
  mutating func giveBack(_ emptied: inout [DeliveryMailbox.Parcel]) {
    assert(emptied.isEmpty && spare.isEmpty, "a parcel in an array given back")
    swap(&emptied, &spare)
  }

  /// Notes where the parcels of subscriptions that conflate are among those posted since the
  /// last look, merging a later parcel of a subscription into its first.
  mutating func indexConflatedParcels() {
    let unindexed = indexedCount..<parcels.count
    indexedCount = parcels.count
    for position in unindexed {
      let parcel = parcels[position]
      guard parcel.subscription.conflation != .none, !parcel.records.isEmpty else { continue }
      let identifier = ObjectIdentifier(parcel.subscription)
      guard conflated[identifier] != nil else {
        conflated[identifier] = DeliveryMailbox.ConflatedParcel(position: position)
        continue
      }
      parcels[position] = DeliveryMailbox.Parcel(subscription: parcel.subscription, records: [])
      emptiedCount += 1
      add(parcel)
    }
  }

  /// Adds a parcel after those waiting, or merges it into the one waiting for its subscription
  /// when the subscription conflates.
  mutating func add(_ parcel: DeliveryMailbox.Parcel) {
    let subscription = parcel.subscription
    guard subscription.conflation != .none else { return parcels.append(parcel) }
    let identifier = ObjectIdentifier(subscription)
    // Taken out while it changes, so that its positions by key are not copied.
    guard var entry = conflated.removeValue(forKey: identifier) else {
      conflated[identifier] = DeliveryMailbox.ConflatedParcel(position: parcels.count)
      return parcels.append(parcel)
    }
    switch subscription.conflation {
    case .none:
      break
    case .latestEvent:
      // The latest event moves after every event posted before it; its old place stays empty
      // until the drain, or a compaction, drops it.
      parcels[entry.position] = DeliveryMailbox.Parcel(subscription: subscription, records: [])
      emptiedCount += 1
      entry.position = parcels.count
      parcels.append(
        parcel.records.count <= 1
          ? parcel
          : DeliveryMailbox.Parcel(subscription: subscription, records: [parcel.records.last!]))
    case .latestEventPerChild:
      // Taken out of the array while it grows, so that it is not copied.
      var records = parcels[entry.position].records
      parcels[entry.position] = DeliveryMailbox.Parcel(subscription: subscription, records: [])
      var positions = entry.positionsByKey ?? Self.positionsByKey(of: records)
      entry.positionsByKey = nil
      var greatest = entry.greatest ?? Self.greatest(in: positions)
      for record in parcel.records {
        let key = record.path.key
        let order = greatest.map { WebcomKey.order(key, $0.key) } ?? 1
        if order > 0 {
          greatest = (key, records.count)
          records.append(record)
        } else if order == 0, let position = greatest?.position {
          records[position] = record
        } else if let position = positions[key] {
          records[position] = record
        } else {
          positions[key] = records.count
          records.append(record)
        }
      }
      entry.positionsByKey = positions
      entry.greatest = greatest
      parcels[entry.position] = DeliveryMailbox.Parcel(subscription: subscription, records: records)
    }
    conflated[identifier] = entry
  }

  /// The greatest key of `positions` and its position.
  private static func greatest(in positions: [WebcomKey: Int]) -> (key: WebcomKey, position: Int)? {
    positions.max { WebcomKey.order($0.key, $1.key) < 0 }.map { ($0.key, $0.value) }
  }

  /// The position of the last event of each key among `records`.
  private static func positionsByKey(of records: [EventRecord]) -> [WebcomKey: Int] {
    var positions: [WebcomKey: Int] = [:]
    positions.reserveCapacity(records.count)
    for (position, record) in records.enumerated() { positions[record.path.key] = position }
    return positions
  }

  /// Drops the parcels conflation emptied once they outnumber the others (and are more than a
  /// few), and moves the conflated ones' positions with the others: O(waiting parcels), once per
  /// as many emptied ones, so O(1) per post on average.
  mutating func dropEmptiedParcelsOnceTheyOutnumberTheOthers() {
    guard emptiedCount > 16, emptiedCount * 2 > parcels.count else { return }
    var kept: [DeliveryMailbox.Parcel] = []
    kept.reserveCapacity(parcels.count - emptiedCount)
    for parcel in parcels where !parcel.records.isEmpty {
      let identifier = ObjectIdentifier(parcel.subscription)
      if parcel.subscription.conflation != .none { conflated[identifier]?.position = kept.count }
      kept.append(parcel)
    }
    parcels = kept
    indexedCount = kept.count
    emptiedCount = 0
  }
}
