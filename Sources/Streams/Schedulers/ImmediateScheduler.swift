/// A scheduler that runs every action at once, on the calling thread.
///
/// Its clock is a counter that never advances by itself: `schedule(after:)` runs the action
/// immediately whatever the date, and a repeating schedule runs its action once (it cannot wait
/// for the next interval), then is done. Useful to run time-based operators synchronously, for
/// example `debounce` on an immediate scheduler forwards every value.
///
/// ```swift
/// ImmediateScheduler.shared.schedule { print("now") }
/// ```
public struct ImmediateScheduler: Scheduler, Sendable {
  /// The immediate scheduler's time: a step count that is always zero for `now`.
  public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
    /// The interval between two immediate-scheduler times, in steps.
    ///
    /// Time never passes on an immediate scheduler, so every unit conversion (`.seconds(_:)`,
    /// `.milliseconds(_:)`, …) gives zero steps. Literals count steps: `14` and `14.6` are both
    /// 14 steps (a float literal is truncated toward zero, as in Combine).
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
      Codable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral
    {
      /// The number of steps.
      public var magnitude: Int

      /// A stride of `value` steps.
      public init(_ value: Int) { magnitude = value }
      public init(integerLiteral value: Int) { magnitude = value }

      /// `value` steps, truncated toward zero and clamped to the `Int` range; NaN is zero.
      public init(floatLiteral value: Double) {
        if value.isNaN {
          magnitude = 0
        } else if value >= Double(Int.max) {
          magnitude = .max
        } else if value <= Double(Int.min) {
          magnitude = .min
        } else {
          magnitude = Int(value.rounded(.towardZero))
        }
      }
      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        magnitude = value
      }

      public static func seconds(_ seconds: Int) -> Stride { Stride(0) }
      public static func seconds(_ seconds: Double) -> Stride { Stride(0) }
      public static func milliseconds(_ milliseconds: Int) -> Stride { Stride(0) }
      public static func microseconds(_ microseconds: Int) -> Stride { Stride(0) }
      public static func nanoseconds(_ nanoseconds: Int) -> Stride { Stride(0) }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude &+ rhs.magnitude)
      }
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude &- rhs.magnitude)
      }
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude &* rhs.magnitude)
      }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
    }

    /// The step count.
    public let step: Int

    /// The time at step `step`.
    public init(step: Int) { self.step = step }

    public func distance(to other: SchedulerTimeType) -> Stride { Stride(other.step &- step) }
    public func advanced(by stride: Stride) -> SchedulerTimeType {
      SchedulerTimeType(step: step &+ stride.magnitude)
    }
  }

  /// The immediate scheduler has no options.
  public typealias SchedulerOptions = Never

  /// The shared instance.
  public static let shared = ImmediateScheduler()

  /// The immediate scheduler; all instances behave the same.
  public init() {}

  public var now: SchedulerTimeType { SchedulerTimeType(step: 0) }
  public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    action()
  }

  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    action()
  }

  /// Runs `action` once, immediately; the returned cancellable has nothing left to stop.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    action()
    return AnyCancellable {}
  }
}
