/// A scheduler that runs every action at once, on the calling thread, with the time type of
/// another scheduler: `DispatchQueue.immediate` stands in for a `DispatchQueue`.
///
/// Like ``ImmediateScheduler``, its clock stands still at the instant it was created with:
/// `schedule(after:)` runs the action immediately whatever the date, and a repeating schedule
/// runs its action once, then is done. Options are accepted and ignored. Code that takes an
/// `AnySchedulerOf<DispatchQueue>` runs synchronously on it: a `debounce` forwards every value at
/// once, a `delay` does not wait. Useful where waiting is beside the point, for example a preview
/// or a command-line run; to control the passing of time, use a test scheduler (module
/// `StreamsTesting`).
///
/// ```swift
/// let search = SearchService(scheduler: DispatchQueue.immediate.eraseToAnyScheduler())
/// ```
public struct ImmediateClockScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
  /// The instant the clock stands at.
  public let now: SchedulerTimeType

  /// An immediate scheduler whose clock stands at `now`.
  public init(now: SchedulerTimeType) {
    self.now = now
  }

  /// Zero: nothing waits.
  public var minimumTolerance: SchedulerTimeType.Stride { .zero }

  /// Runs `action` now.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    action()
  }

  /// Runs `action` now, whatever `date`.
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Runs `action` once, now; the returned cancellable has nothing left to stop.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return AnyCancellable {}
  }
}

extension ImmediateClockScheduler: Sendable where SchedulerTimeType: Sendable {}

/// An ``ImmediateClockScheduler`` with the time and options types of `StandIn`:
/// `ImmediateSchedulerOf<DispatchQueue>` is the type of `DispatchQueue.immediate`.
public typealias ImmediateSchedulerOf<StandIn: Scheduler> = ImmediateClockScheduler<
  StandIn.SchedulerTimeType, StandIn.SchedulerOptions
>
