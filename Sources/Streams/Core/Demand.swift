extension Subscribers {
  /// The number of values a subscriber asks a publisher for.
  ///
  /// A demand is either a finite count (`.max(n)`, `.none` being `.max(0)`, up to
  /// `.max(Int.max)`) or `.unlimited`. The arithmetic follows Combine's documented rules:
  /// - adding: anything plus `.unlimited` is `.unlimited`; a finite sum beyond `Int.max` is
  ///   `.unlimited` (so `.max(Int.max - 1) + 1` is `.max(Int.max)`, one more is `.unlimited`);
  /// - subtracting: `.unlimited` minus anything, `.unlimited` included, stays `.unlimited`;
  ///   a finite demand minus `.unlimited` is `.none`; a finite difference below zero is `.none`;
  ///   subtracting a negative integer adds it, and a result beyond `Int.max` overflows to `.none`;
  /// - multiplying: `.unlimited` times anything is `.unlimited`; a finite product beyond `Int.max`
  ///   is `.unlimited`;
  /// - comparing with an `Int`: `.unlimited` is greater than every integer and equal to none.
  ///
  /// Where Combine traps (adding a negative integer that takes the demand below zero, multiplying
  /// by a negative factor) this implementation stays alive and gives `.none`, so demand
  /// bookkeeping can never trap or go negative.
  ///
  /// A demand encodes as Combine encodes it: a single unsigned integer, the count for `.max(n)`
  /// and `UInt(Int.max) + 1` for `.unlimited`, so values written by either decode in the other.
  /// Decoding a count above `Int.max` gives `.unlimited`.
  ///
  /// ```swift
  /// var demand = Subscribers.Demand.max(2)
  /// demand -= 5          // .none, not a crash
  /// demand += .unlimited // .unlimited
  /// ```
  @frozen
  public struct Demand: Equatable, Comparable, Hashable, Codable, Sendable,
    CustomStringConvertible
  {
    /// The count, `UInt(Int.max) + 1` meaning unlimited (Combine's encoded form).
    @usableFromInline internal let rawValue: UInt

    /// The raw value of `.unlimited`: one past the largest finite count.
    @usableFromInline internal static var unlimitedRawValue: UInt { UInt(Int.max) + 1 }

    @inlinable
    internal init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// A demand for as many values as the publisher can produce.
    ///
    /// Computed and `@inlinable` (rather than a stored static) so that hot paths read a constant
    /// instead of calling the accessor of a lazily initialised global.
    @inlinable
    public static var unlimited: Demand { Demand(rawValue: unlimitedRawValue) }

    /// A demand for no value.
    @inlinable
    public static var none: Demand { Demand(rawValue: 0) }

    /// A demand for at most `value` values.
    ///
    /// - Precondition: `value >= 0`.
    @inlinable
    public static func max(_ value: Int) -> Demand {
      precondition(value >= 0, "Subscribers.Demand.max(\(value)): a demand cannot be negative")
      return Demand(rawValue: UInt(value))
    }

    /// The finite count, or `nil` when the demand is unlimited.
    @inlinable
    public var max: Int? {
      rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
    }

    public var description: String {
      rawValue == Demand.unlimitedRawValue ? "unlimited" : "max(\(rawValue))"
    }

    /// Adds, saturating at `.unlimited`.
    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      // Both raw values are at most `unlimitedRawValue`, so the sum fits in a `UInt`.
      let sum = lhs.rawValue + rhs.rawValue
      return sum >= unlimitedRawValue ? .unlimited : Demand(rawValue: sum)
    }

    /// Adds an integer, saturating at `.unlimited`; a negative integer subtracts, clamping at
    /// `.none`.
    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0
        ? lhs - Demand(rawValue: Swift.min(rhs.magnitude, unlimitedRawValue))
        : lhs + Demand(rawValue: UInt(rhs))
    }

    @inlinable
    public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

    @inlinable
    public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    /// Subtracts, clamping at `.none`; `.unlimited` minus anything (`.unlimited` included) stays
    /// `.unlimited`, and a finite demand minus `.unlimited` is `.none`.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      if lhs.rawValue == unlimitedRawValue { return .unlimited }
      if rhs.rawValue >= lhs.rawValue { return .none }
      return Demand(rawValue: lhs.rawValue - rhs.rawValue)
    }

    /// Subtracts an integer, clamping at `.none`; `.unlimited` stays `.unlimited`. A negative
    /// integer adds, and a sum beyond `Int.max` overflows to `.none`, as with Combine (so
    /// `.max(Int.max) - (-1)` is `.none`).
    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      if lhs.rawValue == unlimitedRawValue { return .unlimited }
      guard rhs < 0 else { return lhs - Demand(rawValue: UInt(rhs)) }
      let (difference, overflow) = Int(lhs.rawValue).subtractingReportingOverflow(rhs)
      return overflow ? .none : Demand(rawValue: UInt(difference))
    }

    @inlinable
    public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

    @inlinable
    public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

    /// Multiplies, saturating at `.unlimited`; `.unlimited` times anything is `.unlimited`, and a
    /// finite demand times zero or a negative factor is `.none`.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      if lhs.rawValue == unlimitedRawValue { return .unlimited }
      if rhs <= 0 { return .none }
      let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
      return overflow || product >= unlimitedRawValue ? .unlimited : Demand(rawValue: product)
    }

    @inlinable
    public static func *= (lhs: inout Demand, rhs: Int) { lhs = lhs * rhs }

    @inlinable
    public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

    @inlinable
    public static func == (lhs: Demand, rhs: Int) -> Bool {
      rhs >= 0 && lhs.rawValue == UInt(rhs)
    }

    @inlinable
    public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

    @inlinable
    public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }

    @inlinable
    public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

    @inlinable
    public static func < (lhs: Demand, rhs: Int) -> Bool {
      rhs > 0 && lhs.rawValue < UInt(rhs)
    }

    @inlinable
    public static func <= (lhs: Demand, rhs: Int) -> Bool {
      rhs >= 0 && lhs.rawValue <= UInt(rhs)
    }

    @inlinable
    public static func > (lhs: Demand, rhs: Int) -> Bool { !(lhs <= rhs) }

    @inlinable
    public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }

    @inlinable
    public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }

    @inlinable
    public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

    @inlinable
    public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }

    @inlinable
    public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

    /// Decodes a demand from a single unsigned integer, Combine's form; a count above `Int.max`
    /// decodes as `.unlimited`.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      rawValue = Swift.min(try container.decode(UInt.self), Demand.unlimitedRawValue)
    }

    /// Encodes the demand as a single unsigned integer: the count, or `UInt(Int.max) + 1` for
    /// `.unlimited`, as Combine does.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }
}
