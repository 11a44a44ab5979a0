import Streams

/// A virtual-time scheduler on its own time type, ``VirtualTime`` (nanoseconds from 0).
///
/// `TestScheduler()` starts at virtual time 0. To test code written against a real scheduler's
/// time type, use ``TestSchedulerOf`` (for example `DispatchQueue.test`) instead. See
/// ``VirtualTimeScheduler`` for the semantics.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let recorder = RecordingSubscriber<Int, Never>(clock: scheduler.clock)
/// subject.debounce(for: .seconds(1), scheduler: scheduler).subscribe(recorder)
/// subject.send(1)
/// scheduler.advance(by: .seconds(1))   // recorder.values == [1]
/// ```
public typealias TestScheduler = VirtualTimeScheduler<VirtualTime, Never>

/// A virtual-time scheduler with the time and options types of `StandIn`:
/// `TestSchedulerOf<DispatchQueue>` is the type of `DispatchQueue.test`.
public typealias TestSchedulerOf<StandIn: Scheduler> = VirtualTimeScheduler<
  StandIn.SchedulerTimeType, StandIn.SchedulerOptions
>

extension VirtualTimeScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
  /// A scheduler at virtual time 0 with nothing scheduled.
  public convenience init() {
    self.init(now: VirtualTime(0))
  }
}

extension VirtualTimeScheduler where SchedulerTimeType == VirtualTime {
  /// The current virtual time in nanoseconds, as a clock for `RecordingSubscriber`.
  public var clock: @Sendable () -> Int {
    { [self] in now.nanoseconds }
  }
}
