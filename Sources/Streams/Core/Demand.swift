extension Subscribers {
  /// The number of values a subscriber asks a publisher for.
  ///
  /// A demand is either a finite count (`.max(n)`, `.none` being `.max(0)`) or `.unlimited`.
  /// Its arithmetic is total: adding saturates at `.unlimited`, subtracting clamps at `.none`,
  /// so demand bookkeeping can never trap or go negative.
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
    /// The count, `UInt.max` meaning unlimited.
    @usableFromInline internal let rawValue: UInt

    @inlinable
    internal init(rawValue: UInt) {
      self.rawValue = rawValue
    }

    /// A demand for as many values as the publisher can produce.
    ///
    /// Computed and `@inlinable` (rather than a stored static) so that hot paths read a constant
    /// instead of calling the accessor of a lazily initialised global.
    @inlinable
    public static var unlimited: Demand { Demand(rawValue: .max) }

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
      rawValue == .max ? nil : Int(rawValue)
    }

    public var description: String {
      rawValue == .max ? "unlimited" : "max(\(rawValue))"
    }

    @inlinable
    public static func + (lhs: Demand, rhs: Demand) -> Demand {
      if lhs.rawValue == .max || rhs.rawValue == .max { return .unlimited }
      let (sum, overflow) = lhs.rawValue.addingReportingOverflow(rhs.rawValue)
      return overflow || sum >= UInt(Int.max) ? .unlimited : Demand(rawValue: sum)
    }

    @inlinable
    public static func + (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0 ? lhs - Demand(rawValue: rhs.magnitude) : lhs + Demand(rawValue: UInt(rhs))
    }

    @inlinable
    public static func += (lhs: inout Demand, rhs: Demand) { lhs = lhs + rhs }

    @inlinable
    public static func += (lhs: inout Demand, rhs: Int) { lhs = lhs + rhs }

    /// Subtracts, clamping at `.none`; `.unlimited` minus a finite demand stays `.unlimited`.
    @inlinable
    public static func - (lhs: Demand, rhs: Demand) -> Demand {
      if lhs.rawValue == .max { return rhs.rawValue == .max ? .none : .unlimited }
      if rhs.rawValue >= lhs.rawValue { return .none }
      return Demand(rawValue: lhs.rawValue - rhs.rawValue)
    }

    @inlinable
    public static func - (lhs: Demand, rhs: Int) -> Demand {
      rhs < 0 ? lhs + Demand(rawValue: rhs.magnitude) : lhs - Demand(rawValue: UInt(rhs))
    }

    @inlinable
    public static func -= (lhs: inout Demand, rhs: Demand) { lhs = lhs - rhs }

    @inlinable
    public static func -= (lhs: inout Demand, rhs: Int) { lhs = lhs - rhs }

    /// Multiplies, saturating at `.unlimited`; a negative factor gives `.none`.
    @inlinable
    public static func * (lhs: Demand, rhs: Int) -> Demand {
      if rhs <= 0 { return .none }
      if lhs.rawValue == .max { return .unlimited }
      let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
      return overflow || product >= UInt(Int.max) ? .unlimited : Demand(rawValue: product)
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

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      rawValue = try container.decode(UInt.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }
}
