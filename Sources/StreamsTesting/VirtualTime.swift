import Streams

/// A virtual instant, in nanoseconds since virtual time 0: the time type of ``TestScheduler``.
///
/// Arithmetic saturates at the `Int` range instead of trapping. Its ``Stride`` counts
/// nanoseconds, integer literals included (`5` is 5 ns, unlike `DispatchQueue`'s stride where it
/// is 5 s); use `.seconds(_:)`, `.milliseconds(_:)`, … for other units.
public struct VirtualTime: Strideable, Hashable, Sendable, CustomStringConvertible {
  /// A virtual interval, in nanoseconds.
  public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
    Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible
  {
    /// The interval in nanoseconds.
    public var nanoseconds: Int

    /// An interval of `nanoseconds` nanoseconds.
    public init(nanoseconds: Int) { self.nanoseconds = nanoseconds }

    /// An interval of `value` nanoseconds.
    public init(integerLiteral value: Int) { nanoseconds = value }

    public init?<T: BinaryInteger>(exactly source: T) {
      guard let value = Int(exactly: source) else { return nil }
      nanoseconds = value
    }

    public var magnitude: Int { nanoseconds.magnitude > UInt(Int.max) ? .max : abs(nanoseconds) }

    public var description: String { "\(nanoseconds)ns" }

    public static func seconds(_ seconds: Int) -> Stride {
      Stride(nanoseconds: seconds.multipliedSaturating(by: 1_000_000_000))
    }
    public static func seconds(_ seconds: Double) -> Stride {
      let value = (seconds * 1_000_000_000).rounded()
      if value.isNaN { return .zero }
      if value >= Double(Int.max) { return Stride(nanoseconds: .max) }
      if value <= Double(Int.min) { return Stride(nanoseconds: .min) }
      return Stride(nanoseconds: Int(value))
    }
    public static func milliseconds(_ milliseconds: Int) -> Stride {
      Stride(nanoseconds: milliseconds.multipliedSaturating(by: 1_000_000))
    }
    public static func microseconds(_ microseconds: Int) -> Stride {
      Stride(nanoseconds: microseconds.multipliedSaturating(by: 1_000))
    }
    public static func nanoseconds(_ nanoseconds: Int) -> Stride {
      Stride(nanoseconds: nanoseconds)
    }

    public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.nanoseconds < rhs.nanoseconds }
    public static func + (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs.nanoseconds.addingSaturating(rhs.nanoseconds))
    }
    public static func - (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs.nanoseconds.subtractingSaturating(rhs.nanoseconds))
    }
    public static func * (lhs: Stride, rhs: Stride) -> Stride {
      Stride(nanoseconds: lhs.nanoseconds.multipliedSaturating(by: rhs.nanoseconds))
    }
    public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
    public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
    public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
  }

  /// Nanoseconds since virtual time 0.
  public let nanoseconds: Int

  /// The instant `nanoseconds` after virtual time 0.
  public init(_ nanoseconds: Int) { self.nanoseconds = nanoseconds }

  public var description: String { "\(nanoseconds)ns" }

  public func distance(to other: VirtualTime) -> Stride {
    Stride(nanoseconds: other.nanoseconds.subtractingSaturating(nanoseconds))
  }

  public func advanced(by stride: Stride) -> VirtualTime {
    VirtualTime(nanoseconds.addingSaturating(stride.nanoseconds))
  }

  public static func < (lhs: VirtualTime, rhs: VirtualTime) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}

extension Int {
  fileprivate func addingSaturating(_ other: Int) -> Int {
    let (sum, overflow) = addingReportingOverflow(other)
    if !overflow { return sum }
    return other < 0 ? .min : .max
  }

  fileprivate func subtractingSaturating(_ other: Int) -> Int {
    let (difference, overflow) = subtractingReportingOverflow(other)
    if !overflow { return difference }
    return other < 0 ? .max : .min
  }

  fileprivate func multipliedSaturating(by factor: Int) -> Int {
    let (product, overflow) = multipliedReportingOverflow(by: factor)
    if !overflow { return product }
    return (self < 0) != (factor < 0) ? .min : .max
  }
}
