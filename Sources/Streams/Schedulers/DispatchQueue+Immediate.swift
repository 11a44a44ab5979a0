import Dispatch

extension DispatchQueue {
  /// An immediate scheduler with `DispatchQueue`'s time type: it runs every action at once, on
  /// the calling thread, its clock standing at 1 nanosecond of uptime.
  ///
  /// For code that takes an `AnySchedulerOf<DispatchQueue>` and should not wait, for example a
  /// preview. See ``ImmediateClockScheduler``.
  public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
    ImmediateClockScheduler(now: SchedulerTimeType(DispatchTime(uptimeNanoseconds: 1)))
  }
}

extension AnyScheduler
where
  SchedulerTimeType == DispatchQueue.SchedulerTimeType,
  SchedulerOptions == DispatchQueue.SchedulerOptions
{
  /// The main queue, type-erased: a default value for a service's scheduler.
  ///
  /// ```swift
  /// init(scheduler: AnySchedulerOf<DispatchQueue> = .main) { … }
  /// ```
  public static var main: AnySchedulerOf<DispatchQueue> { AnyScheduler(DispatchQueue.main) }

  /// ``Dispatch/DispatchQueue/immediate``, type-erased.
  public static var immediate: AnySchedulerOf<DispatchQueue> {
    AnyScheduler(DispatchQueue.immediate)
  }
}
