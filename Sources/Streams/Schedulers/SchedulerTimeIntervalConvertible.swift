/// A time interval that can be built from seconds, milliseconds, microseconds or nanoseconds.
///
/// Every scheduler's `SchedulerTimeType.Stride` conforms, so operators such as
/// `debounce(for: .milliseconds(300), scheduler:)` read the same on every scheduler.
public protocol SchedulerTimeIntervalConvertible {
  /// An interval of `seconds` whole seconds.
  static func seconds(_ seconds: Int) -> Self
  /// An interval of `seconds` seconds, fractions included.
  static func seconds(_ seconds: Double) -> Self
  /// An interval of `milliseconds` milliseconds.
  static func milliseconds(_ milliseconds: Int) -> Self
  /// An interval of `microseconds` microseconds.
  static func microseconds(_ microseconds: Int) -> Self
  /// An interval of `nanoseconds` nanoseconds.
  static func nanoseconds(_ nanoseconds: Int) -> Self
}
