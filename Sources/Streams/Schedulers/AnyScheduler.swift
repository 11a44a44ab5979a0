/// A scheduler that hides the type of the scheduler it wraps, keeping its time type.
///
/// Useful to store "some scheduler with this time type" in a property, for example a
/// `DispatchQueue` in production and a wrapper of a test scheduler with the same time type.
/// Options are not forwarded (the wrapped scheduler receives `nil`).
///
/// ```swift
/// let scheduler = AnyScheduler(DispatchQueue.main)
/// subject.debounce(for: .milliseconds(300), scheduler: scheduler)
/// ```
public struct AnyScheduler<SchedulerTimeType: Strideable>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  /// Options are not forwarded to the wrapped scheduler.
  public typealias SchedulerOptions = Never

  private let nowBody: () -> SchedulerTimeType
  private let minimumToleranceBody: () -> SchedulerTimeType.Stride
  private let scheduleBody: (@escaping () -> Void) -> Void
  private let scheduleAfterBody:
    (SchedulerTimeType, SchedulerTimeType.Stride, @escaping () -> Void) -> Void
  private let scheduleRepeatingBody:
    (
      SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride,
      @escaping () -> Void
    ) -> any Cancellable

  /// Wraps `scheduler`.
  public init<S: Scheduler>(_ scheduler: S) where S.SchedulerTimeType == SchedulerTimeType {
    nowBody = { scheduler.now }
    minimumToleranceBody = { scheduler.minimumTolerance }
    scheduleBody = { scheduler.schedule(options: nil, $0) }
    scheduleAfterBody = { scheduler.schedule(after: $0, tolerance: $1, options: nil, $2) }
    scheduleRepeatingBody = {
      scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: nil, $3)
    }
  }

  public var now: SchedulerTimeType { nowBody() }
  public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    scheduleBody(action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    scheduleAfterBody(date, tolerance, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    scheduleRepeatingBody(date, interval, tolerance, action)
  }
}

extension Scheduler {
  /// This scheduler wrapped in an `AnyScheduler`.
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType> {
    AnyScheduler(self)
  }
}
