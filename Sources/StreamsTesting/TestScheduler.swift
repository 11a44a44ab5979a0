import Foundation
import Streams

/// A scheduler on a virtual clock, for deterministic tests of time-based code.
///
/// Time starts at 0 nanoseconds and moves only when the test calls ``advance(by:)``,
/// ``advance(to:)`` or ``run()``. Actions run on the thread that advances the clock, in time
/// order; actions due at the same instant run in the order they were scheduled (FIFO), including
/// actions scheduled by an action for the current instant. Pending actions are kept in a binary
/// heap keyed by (time, scheduling sequence). `schedule(options:_:)` runs the action at the
/// current instant on the next advance, not synchronously. A date in the past means "now".
///
/// Thread-safe: actions may be scheduled and cancelled from any thread.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let recorder = RecordingSubscriber<Int, Never>(clock: scheduler.clock)
/// subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
/// subject.send(1)
/// scheduler.advance(by: .seconds(1))   // recorder.values == [1]
/// ```
public final class TestScheduler: Scheduler, @unchecked Sendable {
  /// A test scheduler has no options.
  public typealias SchedulerOptions = Never

  private let lock = NSLock()
  // Protected by `lock`: the virtual clock, the heap of pending actions, the sequence counter
  // and the identifiers of live repeating actions.
  private var clockTime = 0
  private var heap = ScheduledActionHeap()
  private var nextSequence: UInt64 = 0
  private var liveRepeating: Set<UInt64> = []

  /// A scheduler at virtual time 0 with nothing scheduled.
  public init() {}

  /// The current virtual time.
  public var now: SchedulerTimeType { lock.withLock { SchedulerTimeType(clockTime) } }

  /// Zero: virtual time is exact.
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// The current virtual time in nanoseconds, as a clock for `RecordingSubscriber`.
  public var clock: @Sendable () -> Int {
    { [self] in now.nanoseconds }
  }

  /// The number of actions waiting to run; a repeating action counts once, and a cancelled one
  /// until its next due time, when it is discarded.
  public var pendingActionCount: Int { lock.withLock { heap.count } }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    lock.withLock { _ = enqueue(at: clockTime, interval: nil, action: action) }
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    lock.withLock {
      _ = enqueue(at: max(date.nanoseconds, clockTime), interval: nil, action: action)
    }
  }

  /// Runs `action` at `date`, then every `interval` (at least 1 nanosecond), until cancelled.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let identifier = lock.withLock {
      let identifier = enqueue(
        at: max(date.nanoseconds, clockTime), interval: max(interval.nanoseconds, 1),
        action: action)
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
    let target = lock.withLock { clockTime.addingReportingOverflow(stride.nanoseconds) }
    advance(to: SchedulerTimeType(target.overflow ? Int.max : target.partialValue))
  }

  /// Moves the clock to `time`, running every action due up to it, in order.
  ///
  /// A time before `now` runs only what is due now and leaves the clock where it is.
  public func advance(to time: SchedulerTimeType) {
    while let action = nextAction(dueBy: time.nanoseconds) {
      action()
    }
    lock.withLock { clockTime = max(clockTime, time.nanoseconds) }
  }

  /// Runs actions until no one-shot action is left, moving the clock to each one's time.
  ///
  /// Repeating actions fire along the way but do not keep `run()` going: once only repeating
  /// actions remain, it returns.
  public func run() {
    while let time = lock.withLock({ heap.latestOneShotTime }) {
      advance(to: SchedulerTimeType(time))
    }
  }

  /// Adds an action to the heap. Lock held.
  @discardableResult
  private func enqueue(at time: Int, interval: Int?, action: @escaping () -> Void) -> UInt64 {
    nextSequence += 1
    heap.insert(
      ScheduledAction(
        time: time, sequence: nextSequence, identifier: nextSequence,
        interval: interval, action: action))
    return nextSequence
  }

  /// Pops the first action due at or before `limit`, advancing the clock to its time and
  /// re-queueing it if it repeats.
  private func nextAction(dueBy limit: Int) -> (() -> Void)? {
    lock.lock()
    defer { lock.unlock() }
    while let first = heap.first, first.time <= limit {
      var entry = heap.removeFirst()
      if let interval = entry.interval {
        guard liveRepeating.contains(entry.identifier) else { continue }
        clockTime = max(clockTime, entry.time)
        nextSequence += 1
        let (nextTime, overflow) = entry.time.addingReportingOverflow(interval)
        if !overflow {
          entry.time = nextTime
          entry.sequence = nextSequence
          heap.insert(entry)
        }
        return entry.action
      }
      clockTime = max(clockTime, entry.time)
      return entry.action
    }
    return nil
  }
}

extension TestScheduler {
  /// A virtual instant, in nanoseconds since the scheduler was created.
  public struct SchedulerTimeType: Strideable, Hashable, Sendable, CustomStringConvertible {
    /// A virtual interval, in nanoseconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
      Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible
    {
      /// The interval in nanoseconds.
      public var nanoseconds: Int

      /// An interval of `nanoseconds` nanoseconds.
      public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

      /// An interval of `value` nanoseconds.
      public init(integerLiteral value: Int) { nanoseconds = value }

      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        nanoseconds = value
      }

      public var magnitude: Int { nanoseconds.magnitude > UInt(Int.max) ? .max : abs(nanoseconds) }

      public var description: String { "\(nanoseconds)ns" }

      public static func seconds(_ seconds: Int) -> Stride {
        Stride(nanoseconds: seconds.multipliedSaturating(by: 1_000_000_000))
      }
      public static func seconds(_ seconds: Double) -> Stride {
        let value = (seconds * 1_000_000_000).rounded()
        if value.isNaN { return .zero }
        if value >= Double(Int.max) { return Stride(nanoseconds: .max) }
        if value <= Double(Int.min) { return Stride(nanoseconds: .min) }
        return Stride(nanoseconds: Int(value))
      }
      public static func milliseconds(_ milliseconds: Int) -> Stride {
        Stride(nanoseconds: milliseconds.multipliedSaturating(by: 1_000_000))
      }
      public static func microseconds(_ microseconds: Int) -> Stride {
        Stride(nanoseconds: microseconds.multipliedSaturating(by: 1_000))
      }
      public static func nanoseconds(_ nanoseconds: Int) -> Stride {
        Stride(nanoseconds: nanoseconds)
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(nanoseconds: lhs.nanoseconds &+ rhs.nanoseconds)
      }
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(nanoseconds: lhs.nanoseconds &- rhs.nanoseconds)
      }
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(nanoseconds: lhs.nanoseconds.multipliedSaturating(by: rhs.nanoseconds))
      }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
    }

    /// Nanoseconds since virtual time 0.
    public let nanoseconds: Int

    /// The instant `nanoseconds` after virtual time 0.
    public init(_ nanoseconds: Int) { self.nanoseconds = nanoseconds }

    public var description: String { "\(nanoseconds)ns" }

    public func distance(to other: SchedulerTimeType) -> Stride {
      Stride(nanoseconds: other.nanoseconds &- nanoseconds)
    }

    public func advanced(by stride: Stride) -> SchedulerTimeType {
      let (sum, overflow) = nanoseconds.addingReportingOverflow(stride.nanoseconds)
      if overflow { return SchedulerTimeType(stride.nanoseconds < 0 ? .min : .max) }
      return SchedulerTimeType(sum)
    }
  }
}

extension Int {
  fileprivate func multipliedSaturating(by factor: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: factor)
    if !overflow { return product }
    return (self < 0) != (factor < 0) ? .min : .max
  }
}
