/// Something that runs actions, now or at a later time: a dispatch queue, the current thread, a
/// virtual clock in tests.
///
/// Time-based operators (`debounce`, `throttle`, `delay`, `timeout`, …) and `receive(on:)` take a
/// scheduler, so the same chain runs on a `DispatchQueue` in production and on virtual time in
/// tests: `TestScheduler`, or `DispatchQueue.test` for code that takes an
/// `AnySchedulerOf<DispatchQueue>` (module `StreamsTesting`).
///
/// A scheduler runs the actions it was given for the same time in the order they were given.
///
/// ```swift
/// DispatchQueue.main.schedule(after: DispatchQueue.main.now.advanced(by: .seconds(1))) {
///   print("a second later")
/// }
/// ```
public protocol Scheduler<SchedulerTimeType> {
  /// The scheduler's notion of an instant; its `Stride` is an interval.
  associatedtype SchedulerTimeType: Strideable
  where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible
  /// Scheduler-specific options for each call (`Never` when there are none).
  associatedtype SchedulerOptions

  /// The current time of this scheduler.
  var now: SchedulerTimeType { get }

  /// The smallest tolerance the scheduler honours.
  var minimumTolerance: SchedulerTimeType.Stride { get }

  /// Runs `action` as soon as possible.
  func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)

  /// Runs `action` once, at `date` or later (within `tolerance`).
  func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void)

  /// Runs `action` at `date` and then every `interval`, until the result is cancelled.
  func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable
}

extension Scheduler {
  /// Runs `action` as soon as possible, without options.
  @inlinable
  public func schedule(_ action: @escaping () -> Void) {
    schedule(options: nil, action)
  }

  /// Runs `action` once at `date` or later, with the minimum tolerance and no options.
  @inlinable
  public func schedule(after date: SchedulerTimeType, _ action: @escaping () -> Void) {
    schedule(after: date, tolerance: minimumTolerance, options: nil, action)
  }

  /// Runs `action` once at `date` or later, without options.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    _ action: @escaping () -> Void
  ) {
    schedule(after: date, tolerance: tolerance, options: nil, action)
  }

  /// Runs `action` at `date` and every `interval` after, until cancelled.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(after: date, interval: interval, tolerance: minimumTolerance, options: nil, action)
  }

  /// Runs `action` at `date` and every `interval` after, without options, until cancelled.
  @inlinable
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, _ action: @escaping () -> Void
  ) -> any Cancellable {
    schedule(after: date, interval: interval, tolerance: tolerance, options: nil, action)
  }
}
