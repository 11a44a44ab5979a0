import Dispatch

extension DispatchQueue {
  /// A dispatch-queue time: a `DispatchTime` (uptime clock, nanoseconds).
  ///
  /// Arithmetic never traps, as in Combine:
  /// - ``advanced(by:)`` stops at the clock's ends: a time past `Int64.max` nanoseconds is
  ///   `DispatchTime.distantFuture` (dispatch reads larger raw values as wall-clock times), and a
  ///   time before the clock's start is 1 nanosecond (0 would mean "now" to dispatch).
  /// - ``distance(to:)`` is the signed difference in nanoseconds; a difference too large for an
  ///   `Int`, in either direction (for example to or from `distantFuture`), is `Int.max`
  ///   nanoseconds: "unbounded".
  ///
  /// `Codable` in Combine's form: a single integer, the raw dispatch time
  /// (`{"deadline":42}` for a property `deadline` at 42 nanoseconds of uptime).
  public struct SchedulerTimeType: Strideable, Hashable, Codable, Sendable {
    /// The dispatch time.
    public let dispatchTime: DispatchTime

    /// The scheduler time of `time`.
    public init(_ time: DispatchTime) { dispatchTime = time }

    /// Decodes a time encoded as its raw value; a value past `Int64.max` is `distantFuture`.
    ///
    /// - Throws: `DecodingError` when the value is not an unsigned 64-bit integer.
    public init(from decoder: any Decoder) throws {
      let raw = try decoder.singleValueContainer().decode(UInt64.self)
      self.init(uptimeNanoseconds: raw)
    }

    /// Encodes the raw dispatch time as a single unsigned integer.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(dispatchTime.uptimeNanoseconds)
    }

    /// The time at `nanoseconds` of uptime, normalised as ``advanced(by:)`` does.
    private init(uptimeNanoseconds nanoseconds: UInt64) {
      if nanoseconds > UInt64(Int64.max) {
        dispatchTime = .distantFuture
      } else {
        dispatchTime = DispatchTime(uptimeNanoseconds: max(nanoseconds, 1))
      }
    }

    /// The signed distance to `other`; `Int.max` nanoseconds when it does not fit in an `Int`.
    public func distance(to other: SchedulerTimeType) -> Stride {
      let start = dispatchTime.uptimeNanoseconds
      let end = other.dispatchTime.uptimeNanoseconds
      let difference = end >= start ? end - start : start - end
      guard difference <= UInt64(Int.max) else { return Stride(Int.max) }
      return Stride(end >= start ? Int(difference) : -Int(difference))
    }

    /// The time `stride` later (or earlier), clamped to the clock's ends instead of overflowing.
    public func advanced(by stride: Stride) -> SchedulerTimeType {
      let start = dispatchTime.uptimeNanoseconds
      let delta = UInt64(stride.magnitude.magnitude)
      if stride.magnitude >= 0 {
        let (sum, overflow) = start.addingReportingOverflow(delta)
        return SchedulerTimeType(uptimeNanoseconds: overflow ? .max : sum)
      }
      return SchedulerTimeType(uptimeNanoseconds: delta >= start ? 1 : start - delta)
    }

    public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds == rhs.dispatchTime.uptimeNanoseconds
    }

    public static func < (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
      lhs.dispatchTime.uptimeNanoseconds < rhs.dispatchTime.uptimeNanoseconds
    }

    public func hash(into hasher: inout Hasher) {
      hasher.combine(dispatchTime.uptimeNanoseconds)
    }
  }
}
