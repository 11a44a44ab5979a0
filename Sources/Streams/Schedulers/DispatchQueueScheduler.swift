import Dispatch

extension DispatchQueue: Scheduler {
  /// A dispatch-queue time: a `DispatchTime` (uptime clock, nanoseconds).
  public struct SchedulerTimeType: Strideable, Hashable, Sendable {
    /// A signed interval between two dispatch times, in nanoseconds.
    public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
      Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral
    {
      /// The interval in nanoseconds.
      public var magnitude: Int

      /// An interval of `nanoseconds` nanoseconds.
      public init(_ nanoseconds: Int) { magnitude = nanoseconds }

      /// An interval given as a `DispatchTimeInterval`; `.never` is the largest interval.
      public init(_ interval: DispatchTimeInterval) {
        switch interval {
        case .seconds(let value): magnitude = value.multipliedClamped(by: 1_000_000_000)
        case .milliseconds(let value): magnitude = value.multipliedClamped(by: 1_000_000)
        case .microseconds(let value): magnitude = value.multipliedClamped(by: 1_000)
        case .nanoseconds(let value): magnitude = value
        case .never: magnitude = .max
        @unknown default: magnitude = .max
        }
      }

      /// Whole seconds: `integerLiteral` seconds, as in Combine.
      public init(integerLiteral value: Int) {
        magnitude = value.multipliedClamped(by: 1_000_000_000)
      }

      /// Seconds, fractions included.
      public init(floatLiteral value: Double) {
        magnitude = Self.nanoseconds(ofSeconds: value)
      }

      public init?<T: BinaryInteger>(exactly source: T) {
        guard let value = Int(exactly: source) else { return nil }
        magnitude = value
      }

      /// The interval as a `DispatchTimeInterval`.
      public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

      public static func seconds(_ seconds: Int) -> Stride {
        Stride(seconds.multipliedClamped(by: 1_000_000_000))
      }
      public static func seconds(_ seconds: Double) -> Stride {
        Stride(nanoseconds(ofSeconds: seconds))
      }
      public static func milliseconds(_ milliseconds: Int) -> Stride {
        Stride(milliseconds.multipliedClamped(by: 1_000_000))
      }
      public static func microseconds(_ microseconds: Int) -> Stride {
        Stride(microseconds.multipliedClamped(by: 1_000))
      }
      public static func nanoseconds(_ nanoseconds: Int) -> Stride { Stride(nanoseconds) }

      static func nanoseconds(ofSeconds seconds: Double) -> Int {
        let value = (seconds * 1_000_000_000).rounded()
        if value.isNaN { return 0 }
        if value >= Double(Int.max) { return .max }
        if value <= Double(Int.min) { return .min }
        return Int(value)
      }

      public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }
      public static func + (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude.addingClamped(rhs.magnitude))
      }
      public static func - (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude.addingClamped(rhs.magnitude == .min ? .max : -rhs.magnitude))
      }
      public static func * (lhs: Stride, rhs: Stride) -> Stride {
        Stride(lhs.magnitude.multipliedClamped(by: rhs.magnitude))
      }
      public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
      public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
      public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
    }

    /// The dispatch time.
    public let dispatchTime: DispatchTime

    /// The scheduler time of `time`.
    public init(_ time: DispatchTime) { dispatchTime = time }

    public func distance(to other: SchedulerTimeType) -> Stride {
      let start = dispatchTime.uptimeNanoseconds
      let end = other.dispatchTime.uptimeNanoseconds
      if end >= start {
        return Stride(Int(clamping: end - start))
      }
      return Stride(-Int(clamping: start - end))
    }

    /// The time `stride` later (or earlier); clamps at the clock's ends instead of overflowing.
    public func advanced(by stride: Stride) -> SchedulerTimeType {
      let start = dispatchTime.uptimeNanoseconds
      let target: UInt64
      if stride.magnitude >= 0 {
        let (sum, overflow) = start.addingReportingOverflow(UInt64(stride.magnitude))
        target = overflow ? .max : sum
      } else {
        let delta = stride.magnitude.magnitude
        target = delta >= start ? 1 : start - UInt64(delta)
      }
      return SchedulerTimeType(DispatchTime(uptimeNanoseconds: target))
    }

    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(dispatchTime.uptimeNanoseconds)
    }
  }

  /// Options for each scheduled action: its quality of service, flags and group.
  public struct SchedulerOptions {
    /// The quality of service of the work item.
    public var qos: DispatchQoS
    /// The work item's flags.
    public var flags: DispatchWorkItemFlags
    /// A group to add the work to.
    public var group: DispatchGroup?

    /// Options with the given values.
    public init(
      qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [],
      group: DispatchGroup? = nil
    ) {
      self.qos = qos
      self.flags = flags
      self.group = group
    }
  }

  /// The current uptime.
  public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

  /// Zero: dispatch honours whatever leeway is asked.
  public var minimumTolerance: SchedulerTimeType.Stride { SchedulerTimeType.Stride(0) }

  /// Runs `action` asynchronously on the queue.
  public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
    let box = ActionBox(action)
    let options = options ?? SchedulerOptions()
    async(group: options.group, qos: options.qos, flags: options.flags) { box.action() }
  }

  /// Runs `action` on the queue at `date` (the tolerance is not used by `asyncAfter`).
  public func schedule(
    after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride,
    options: SchedulerOptions?, _ action: @escaping () -> Void
  ) {
    let box = ActionBox(action)
    let options = options ?? SchedulerOptions()
    asyncAfter(deadline: date.dispatchTime, qos: options.qos, flags: options.flags) {
      box.action()
    }
  }

  /// Runs `action` on the queue at `date`, then every `interval` (at least 1 nanosecond), with a
  /// dispatch timer source.
  public func schedule(
    after date: SchedulerTimeType, interval: SchedulerTimeType.Stride,
    tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
    _ action: @escaping () -> Void
  ) -> any Cancellable {
    let box = ActionBox(action)
    let timer = DispatchSource.makeTimerSource(queue: self)
    timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
      box.action()
    }
    timer.schedule(
      deadline: date.dispatchTime, repeating: .nanoseconds(max(interval.magnitude, 1)),
      leeway: .nanoseconds(max(tolerance.magnitude, 0)))
    timer.resume()
    return AnyCancellable { timer.cancel() }
  }
}

/// Carries a non-`Sendable` action to the queue that runs it.
///
/// A scheduler runs the actions it is given on its own thread by contract (as Combine's do); the
/// action is immutable and only ever called, never shared between two runs at once by a serial
/// queue.
private final class ActionBox: @unchecked Sendable {
  let action: () -> Void
  init(_ action: @escaping () -> Void) { self.action = action }
}

extension Int {
  fileprivate func multipliedClamped(by factor: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: factor)
    if !overflow { return product }
    return (self < 0) != (factor < 0) ? .min : .max
  }

  fileprivate func addingClamped(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    if !overflow { return sum }
    return other < 0 ? .min : .max
  }
}
