import Dispatch
import Streams

extension DispatchQueue {
  /// A new virtual-time scheduler with `DispatchQueue`'s time type, its clock at 1 nanosecond of
  /// uptime: pass it (erased, `AnySchedulerOf<DispatchQueue>`) to code written for a
  /// `DispatchQueue`, then move time with `advance(by:)`.
  ///
  /// Each use creates a new scheduler: keep the one you pass in.
  ///
  /// ```swift
  /// let scheduler = DispatchQueue.test
  /// let debounced = input.debounce(for: .milliseconds(300), scheduler: scheduler)
  /// input.send("swift")
  /// scheduler.advance(by: .milliseconds(300))   // "swift" is delivered
  /// ```
  public static var test: TestSchedulerOf<DispatchQueue> {
    VirtualTimeScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension VirtualTimeScheduler where SchedulerTimeType == DispatchQueue.SchedulerTimeType {
  /// The current virtual time in nanoseconds of uptime, as a clock for `RecordingSubscriber`.
  public var clock: @Sendable () -> Int {
    { [self] in Int(clamping: now.dispatchTime.uptimeNanoseconds) }
  }
}
