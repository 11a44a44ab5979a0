import Dispatch

extension DispatchQueue: Scheduler {
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
