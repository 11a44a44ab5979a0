/// One action waiting in a ``VirtualTimeScheduler``.
internal struct ScheduledAction<Time: Strideable> {
  var time: Time
  var sequence: UInt64
  let identifier: UInt64
  /// The time between two runs of a repeating action; `nil` for a one-shot action.
  let interval: Time.Stride?
  let action: () -> Void

  var repeats: Bool { interval != nil }

  /// Heap order: earlier time first, then earlier scheduling.
  func precedes(_ other: ScheduledAction) -> Bool {
    time != other.time ? time < other.time : sequence < other.sequence
  }
}

/// A binary min-heap of scheduled actions keyed by (time, sequence): O(log n) insert and removal.
internal struct ScheduledActionHeap<Time: Strideable> {
  private var storage: [ScheduledAction<Time>] = []

  /// The number of pending one-shot (not repeating) actions.
  private(set) var oneShotCount = 0

  var count: Int { storage.count }
  var first: ScheduledAction<Time>? { storage.first }

  mutating func insert(_ action: ScheduledAction<Time>) {
    if !action.repeats { oneShotCount += 1 }
    storage.append(action)
    siftUp(from: storage.count - 1)
  }

  /// Removes and returns the first action. Precondition: the heap is not empty.
  mutating func removeFirst() -> ScheduledAction<Time> {
    storage.swapAt(0, storage.count - 1)
    let removed = storage.removeLast()
    if !storage.isEmpty { siftDown(from: 0) }
    if !removed.repeats { oneShotCount -= 1 }
    return removed
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
