import Foundation
import Streams

/// A scheduler on a virtual clock of any time type, for deterministic tests of time-based code.
///
/// Time starts at the instant given to ``init(now:)`` and moves only when the test calls
/// ``advance(by:)``, ``advance(to:)`` or ``run()``. Actions run on the thread that advances the
/// clock, in time order; actions due at the same instant run in the order they were scheduled
/// (FIFO), including actions scheduled by an action for the current instant. Pending actions are
/// kept in a binary heap keyed by (time, scheduling sequence). `schedule(options:_:)` runs the
/// action at the current instant on the next advance, not synchronously. A date in the past means
/// "now". Options are accepted and ignored: virtual time has no queues or priorities.
///
/// With `DispatchQueue`'s time type (``TestSchedulerOf``, `DispatchQueue.test`), it stands in for
/// a `DispatchQueue` in code written against `AnySchedulerOf<DispatchQueue>`; ``TestScheduler`` is
/// the same scheduler on ``VirtualTime``.
///
/// Thread-safe: actions may be scheduled and cancelled from any thread.
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let service = SearchService(scheduler: scheduler.eraseToAnyScheduler())
/// service.type("swift")
/// scheduler.advance(by: .milliseconds(300))   // the debounced search ran
/// ```
public final class VirtualTimeScheduler<SchedulerTimeType: Strideable, SchedulerOptions>:
  Scheduler, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  private let lock = NSLock()
  // Protected by `lock`: the virtual clock, the heap of pending actions, the sequence counter
  // and the identifiers of live repeating actions.
  private var clockTime: SchedulerTimeType
  private var heap = ScheduledActionHeap<SchedulerTimeType>()
  private var nextSequence: UInt64 = 0
  private var liveRepeating: Set<UInt64> = []

  /// A scheduler whose clock reads `now`, with nothing scheduled.
  public init(now: SchedulerTimeType) {
    clockTime = now
  }

  /// The current virtual time.
  public var now: SchedulerTimeType { lock.withLock { clockTime } }

  /// Zero: virtual time is exact.
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// The number of actions waiting to run; a repeating action counts once, and a cancelled one
  /// until its next due time, when it is discarded.
  public var pendingActionCount: Int { lock.withLock { heap.count } }

  /// Runs `action` at the current instant, on the next advance.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    lock.withLock { _ = enqueue(at: clockTime, interval: nil, action: action) }
  }

  /// Runs `action` when the clock reaches `date` (at once on the next advance if it is past).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    lock.withLock { _ = enqueue(at: max(date, clockTime), interval: nil, action: action) }
  }

  /// Runs `action` at `date`, then every `interval` (at least 1 nanosecond), until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let step = interval > .zero ? interval : .nanoseconds(1)
    let identifier = lock.withLock {
      let identifier = enqueue(at: max(date, clockTime), interval: step, action: action)
      liveRepeating.insert(identifier)
      return identifier
    }
    return AnyCancellable { [weak self] in
      guard let self else { return }
      lock.withLock { _ = liveRepeating.remove(identifier) }
    }
  }

  /// Moves the clock forward by `stride`, running every action due on the way, in order.
  ///
  /// A negative stride does nothing.
  public func advance(by stride: SchedulerTimeType.Stride = .zero) {
    advance(to: now.advanced(by: stride))
  }

  /// Moves the clock to `time`, running every action due up to it, in order.
  ///
  /// A time before `now` runs only what is due now and leaves the clock where it is.
  public func advance(to time: SchedulerTimeType) {
    while let action = nextAction(dueBy: time) {
      action()
    }
    lock.withLock { clockTime = max(clockTime, time) }
  }

  /// Runs actions until no one-shot action is left, moving the clock to each one's time.
  ///
  /// Repeating actions fire along the way but do not keep `run()` going: once only repeating
  /// actions remain, it returns.
  public func run() {
    while let time = lock.withLock({ heap.oneShotCount > 0 ? heap.first?.time : nil }) {
      advance(to: time)
    }
  }

  /// Adds an action to the heap. Lock held.
  private func enqueue(
    at time: SchedulerTimeType, interval: SchedulerTimeType.Stride?, action: @escaping () -> Void
  ) -> UInt64 {
    nextSequence += 1
    heap.insert(
      ScheduledAction(
        time: time, sequence: nextSequence, identifier: nextSequence, interval: interval,
        action: action))
    return nextSequence
  }

  /// Pops the first action due at or before `limit`, advancing the clock to its time and
  /// re-queueing it if it repeats (unless its next time is past the end of the clock).
  private func nextAction(dueBy limit: SchedulerTimeType) -> (() -> Void)? {
    lock.lock()
    defer { lock.unlock() }
    while let first = heap.first, first.time <= limit {
      var entry = heap.removeFirst()
      if let interval = entry.interval {
        guard liveRepeating.contains(entry.identifier) else { continue }
        clockTime = max(clockTime, entry.time)
        let nextTime = entry.time.advanced(by: interval)
        if nextTime > entry.time {
          nextSequence += 1
          entry.time = nextTime
          entry.sequence = nextSequence
          heap.insert(entry)
        } else {
          liveRepeating.remove(entry.identifier)
        }
        return entry.action
      }
      clockTime = max(clockTime, entry.time)
      return entry.action
    }
    return nil
  }
}
