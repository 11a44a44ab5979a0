/// One action waiting in a ``TestScheduler``.
internal struct ScheduledAction {
  var time: Int
  var sequence: UInt64
  let identifier: UInt64
  let interval: Int?
  let action: () -> Void

  /// Heap order: earlier time first, then earlier scheduling.
  func precedes(_ other: ScheduledAction) -> Bool {
    time != other.time ? time < other.time : sequence < other.sequence
  }
}

/// A binary min-heap of scheduled actions keyed by (time, sequence): O(log n) insert and removal.
internal struct ScheduledActionHeap {
  private var storage: [ScheduledAction] = []
  // Times of pending one-shot actions, with counts, to find the last one without a scan.
  private var oneShotTimes: [Int: Int] = [:]
  private var oneShotMaximum: Int?

  var count: Int { storage.count }
  var first: ScheduledAction? { storage.first }

  /// The time of the latest pending one-shot action.
  var latestOneShotTime: Int? { oneShotMaximum }

  mutating func insert(_ action: ScheduledAction) {
    if action.interval == nil {
      oneShotTimes[action.time, default: 0] += 1
      oneShotMaximum = max(oneShotMaximum ?? action.time, action.time)
    }
    storage.append(action)
    siftUp(from: storage.count - 1)
  }

  /// Removes and returns the first action. Precondition: the heap is not empty.
  mutating func removeFirst() -> ScheduledAction {
    storage.swapAt(0, storage.count - 1)
    let removed = storage.removeLast()
    if !storage.isEmpty { siftDown(from: 0) }
    if removed.interval == nil { forgetOneShot(at: removed.time) }
    return removed
  }

  private mutating func forgetOneShot(at time: Int) {
    let remaining = (oneShotTimes[time] ?? 1) - 1
    if remaining > 0 {
      oneShotTimes[time] = remaining
      return
    }
    oneShotTimes[time] = nil
    if oneShotMaximum == time { oneShotMaximum = oneShotTimes.keys.max() }
  }

  private mutating func siftUp(from start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard storage[child].precedes(storage[parent]) else { return }
      storage.swapAt(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(from start: Int) {
    var parent = start
    while true {
      let left = 2 * parent + 1
      let right = left + 1
      var best = parent
      if left < storage.count, storage[left].precedes(storage[best]) { best = left }
      if right < storage.count, storage[right].precedes(storage[best]) { best = right }
      if best == parent { return }
      storage.swapAt(parent, best)
      parent = best
    }
  }
}
