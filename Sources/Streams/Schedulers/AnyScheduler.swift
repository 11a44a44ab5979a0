/// A scheduler that hides the type of the scheduler it wraps, keeping its time and options types.
///
/// Store "some scheduler with `DispatchQueue`'s time" in a service, so production passes
/// `DispatchQueue.main` and a test passes `DispatchQueue.test` (module `StreamsTesting`), a
/// virtual-time scheduler with the same time type. Options given to the wrapper are passed to the
/// wrapped scheduler as they are.
///
/// ```swift
/// final class SearchService {
///   let scheduler: AnySchedulerOf<DispatchQueue>
///   init(scheduler: AnySchedulerOf<DispatchQueue> = .main) { self.scheduler = scheduler }
/// }
/// subject.debounce(for: .milliseconds(300), scheduler: service.scheduler)
/// ```
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  private let nowBody: () -> SchedulerTimeType
  private let minimumToleranceBody: () -> SchedulerTimeType.Stride
  private let scheduleBody: (SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleAfterBody:
    (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void) -> Void
  private let scheduleRepeatingBody:
    (
      SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
      @escaping () -> Void
    ) -> any Cancellable

  /// Wraps `scheduler`.
  public init<S: Scheduler>(_ scheduler: S)
  where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
    nowBody = { scheduler.now }
    minimumToleranceBody = { scheduler.minimumTolerance }
    scheduleBody = { scheduler.schedule(options: $0, $1) }
    scheduleAfterBody = { scheduler.schedule(after: $0, tolerance: $1, options: $2, $3) }
    scheduleRepeatingBody = {
      scheduler.schedule(after: $0, interval: $1, tolerance: $2, options: $3, $4)
    }
  }

  public var now: SchedulerTimeType { nowBody() }
  public var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    scheduleBody(options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    scheduleAfterBody(date, tolerance, options, action)
  }

  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    scheduleRepeatingBody(date, interval, tolerance, options, action)
  }
}

/// An ``AnyScheduler`` with the time and options types of `WrappedScheduler`:
/// `AnySchedulerOf<DispatchQueue>` holds `DispatchQueue.main` or `DispatchQueue.test`.
public typealias AnySchedulerOf<WrappedScheduler: Scheduler> = AnyScheduler<
  WrappedScheduler.SchedulerTimeType, WrappedScheduler.SchedulerOptions
>

extension Scheduler {
  /// This scheduler wrapped in an ``AnyScheduler``.
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
    AnyScheduler(self)
  }
}

extension AnyScheduler {
  /// This scheduler itself: erasing it again would only add a layer.
  public func eraseToAnyScheduler() -> AnyScheduler<SchedulerTimeType, SchedulerOptions> {
    self
  }
}
