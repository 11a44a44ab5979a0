import Dispatch

extension DispatchQueue.SchedulerTimeType {
  /// A signed interval between two dispatch times, stored in nanoseconds.
  ///
  /// As in Combine, numbers are seconds: `2`, `0.5` and `Stride(exactly: 2)` are two seconds,
  /// half a second and two seconds; `.nanoseconds(_:)`, `.milliseconds(_:)`, … and `init(_:)`
  /// (nanoseconds) give other units. Arithmetic never traps: a result that does not fit
  /// in an `Int` of nanoseconds is `Int.max` or `Int.min` nanoseconds.
  ///
  /// Multiplying two strides multiplies their values in seconds, so a stride times a number is
  /// that many times the stride: `.milliseconds(300) * 2` is 600 milliseconds; the product is
  /// truncated to whole nanoseconds (`.nanoseconds(15) * .nanoseconds(2)` is zero).
  ///
  /// `Codable` in Combine's form: `{"_nanoseconds":419872}`.
  ///
  /// ```swift
  /// let debounce: DispatchQueue.SchedulerTimeType.Stride = 0.3   // 300 ms
  /// let timeout = debounce * 10                                  // 3 s
  /// ```
  public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, Hashable,
    Codable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral
  {
    /// The interval in nanoseconds (signed, as in Combine).
    public var magnitude: Int

    /// An interval of `nanoseconds` nanoseconds.
    public init(_ nanoseconds: Int) { magnitude = nanoseconds }

    /// An interval given as a `DispatchTimeInterval`; `.never` is the largest interval.
    public init(_ interval: DispatchTimeInterval) {
      switch interval {
      case .seconds(let value): magnitude = value.multipliedClamped(by: Self.nanosecondsPerSecond)
      case .milliseconds(let value): magnitude = value.multipliedClamped(by: 1_000_000)
      case .microseconds(let value): magnitude = value.multipliedClamped(by: 1_000)
      case .nanoseconds(let value): magnitude = value
      case .never: magnitude = .max
      @unknown default: magnitude = .max
      }
    }

    /// Whole seconds, clamped to the `Int` range of nanoseconds.
    public init(integerLiteral value: Int) {
      magnitude = value.multipliedClamped(by: Self.nanosecondsPerSecond)
    }

    /// Seconds, fractions included, rounded to the nearest nanosecond; NaN is zero.
    public init(floatLiteral value: Double) {
      magnitude = Self.nanoseconds(ofSeconds: value)
    }

    /// `source` whole seconds, or `nil` when that many seconds do not fit in an `Int` of
    /// nanoseconds.
    public init?<T: BinaryInteger>(exactly source: T) {
      guard let seconds = Int(exactly: source) else { return nil }
      let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(
        by: Self.nanosecondsPerSecond)
      if overflow { return nil }
      magnitude = nanoseconds
    }

    /// Decodes `{"_nanoseconds": n}`.
    ///
    /// - Throws: `DecodingError` when the key is missing or not an integer.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      magnitude = try container.decode(Int.self, forKey: .nanoseconds)
    }

    /// Encodes `{"_nanoseconds": n}`.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(magnitude, forKey: .nanoseconds)
    }

    private enum CodingKeys: String, CodingKey {
      case nanoseconds = "_nanoseconds"
    }

    /// The interval as a `DispatchTimeInterval`.
    public var timeInterval: DispatchTimeInterval { .nanoseconds(magnitude) }

    public static func seconds(_ seconds: Int) -> Stride {
      Stride(seconds.multipliedClamped(by: nanosecondsPerSecond))
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

    private static let nanosecondsPerSecond = 1_000_000_000

    private static func nanoseconds(ofSeconds seconds: Double) -> Int {
      let value = (seconds * Double(nanosecondsPerSecond)).rounded()
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
      Stride(lhs.magnitude.subtractingClamped(rhs.magnitude))
    }

    /// The product of the two strides in seconds, truncated to whole nanoseconds and clamped.
    public static func * (lhs: Stride, rhs: Stride) -> Stride {
      let product = lhs.magnitude.magnitude.multipliedFullWidth(by: rhs.magnitude.magnitude)
      let isNegative = (lhs.magnitude < 0) != (rhs.magnitude < 0)
      let divisor = UInt(nanosecondsPerSecond)
      guard product.high < divisor else { return Stride(isNegative ? .min : .max) }
      let (quotient, _) = divisor.dividingFullWidth(product)
      if isNegative {
        return Stride(quotient > Int.min.magnitude ? .min : Int(truncatingIfNeeded: 0 &- quotient))
      }
      return Stride(quotient > UInt(Int.max) ? .max : Int(quotient))
    }

    public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
    public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }
    public static func *= (lhs: inout Stride, rhs: Stride) { lhs = lhs * rhs }
  }
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

  fileprivate func subtractingClamped(_ other: Int) -> Int {
    let (difference, overflow) = subtractingReportingOverflow(other)
    if !overflow { return difference }
    return other < 0 ? .max : .min
  }
}
