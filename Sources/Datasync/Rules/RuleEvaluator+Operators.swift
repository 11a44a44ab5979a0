extension RuleEvaluator {
  // MARK: - Strings

  /// The UTF-8 range of the first occurrence of `needle` in `haystack` from `start`, in time
  /// linear in both (Knuth–Morris–Pratt); `nil` when there is none.
  static func firstOccurrence(
    of needle: String, in haystack: String, from start: String.UTF8View.Index
  ) -> Range<String.UTF8View.Index>? {
    let pattern = Array(needle.utf8)
    guard !pattern.isEmpty else { return start..<start }
    var failure = [Int](repeating: 0, count: pattern.count)
    var matched = 0
    for index in pattern.indices.dropFirst() {
      while matched > 0 && pattern[index] != pattern[matched] { matched = failure[matched - 1] }
      if pattern[index] == pattern[matched] { matched += 1 }
      failure[index] = matched
    }
    matched = 0
    let bytes = haystack.utf8
    var index = start
    while index != bytes.endIndex {
      let byte = bytes[index]
      while matched > 0 && byte != pattern[matched] { matched = failure[matched - 1] }
      if byte == pattern[matched] { matched += 1 }
      bytes.formIndex(after: &index)
      if matched == pattern.count { return bytes.index(index, offsetBy: -pattern.count)..<index }
    }
    return nil
  }

  /// `string` with every occurrence of `pattern` (from the left, not overlapping) replaced.
  static func replacing(_ pattern: String, with replacement: String, in string: String)
    -> String
  {
    guard !pattern.isEmpty else { return string }
    var result = ""
    var start = string.utf8.startIndex
    while let range = firstOccurrence(of: pattern, in: string, from: start) {
      result += string[start..<range.lowerBound]
      result += replacement
      start = range.upperBound
    }
    result += string[start...]
    return result
  }

  // MARK: - Operators

  enum Number {
    case int(Int64)
    case double(Double)
  }

  static func number(_ value: RuleValue, for operation: String) throws(RuleFailure)
    -> Number
  {
    switch value {
    case .int(let int): return .int(int)
    case .double(let double): return .double(double)
    default:
      throw RuleFailure(message: "\(operation) needs numbers, found \(value.kindDescription)")
    }
  }

  /// The result of an arithmetic operator (`+` also joins strings).
  static func arithmetic(
    _ operation: RuleExpression.BinaryOperator, _ left: RuleValue, _ right: RuleValue
  ) throws(RuleFailure) -> RuleValue {
    switch operation {
    case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
      preconditionFailure("a comparison is not arithmetic")
    case .add:
      switch (left, right) {
      case (.string(let lhs), .string(let rhs)): return .string(lhs + rhs)
      case (.string(let lhs), .int), (.string(let lhs), .double):
        return .string(lhs + (try Self.text(ofNumber: right)))
      case (.int, .string(let rhs)), (.double, .string(let rhs)):
        return .string((try Self.text(ofNumber: left)) + rhs)
      default:
        return try Self.combine(
          Self.number(left, for: "+"), Self.number(right, for: "+"), "+",
          integer: { $0.addingReportingOverflow($1) }, double: +)
      }
    case .subtract:
      return try Self.combine(
        Self.number(left, for: "-"), Self.number(right, for: "-"), "-",
        integer: { $0.subtractingReportingOverflow($1) }, double: -)
    case .multiply:
      return try Self.combine(
        Self.number(left, for: "*"), Self.number(right, for: "*"), "*",
        integer: { $0.multipliedReportingOverflow(by: $1) }, double: *)
    case .divide:
      let (dividend, divisor) = (try Self.number(left, for: "/"), try Self.number(right, for: "/"))
      if case .int(let lhs) = dividend, case .int(let rhs) = divisor, rhs != 0,
        lhs.remainderReportingOverflow(dividingBy: rhs).partialValue == 0
      {
        return try Self.combine(
          dividend, divisor, "/", integer: { $0.dividedReportingOverflow(by: $1) }, double: /)
      }
      guard Self.double(divisor) != 0 else { throw RuleFailure(message: "division by zero") }
      return try Self.finite(Self.double(dividend) / Self.double(divisor))
    case .remainder:
      let (dividend, divisor) = (try Self.number(left, for: "%"), try Self.number(right, for: "%"))
      guard Self.double(divisor) != 0 else { throw RuleFailure(message: "remainder by zero") }
      if case .int(let lhs) = dividend, case .int(let rhs) = divisor {
        return .int(lhs.remainderReportingOverflow(dividingBy: rhs).partialValue)
      }
      return try Self.finite(
        Self.double(dividend).truncatingRemainder(dividingBy: Self.double(divisor)))
    }
  }

  /// The integer result of two integers when it does not overflow, else the floating one.
  private static func combine(
    _ left: Number, _ right: Number, _ symbol: String,
    integer: (Int64, Int64) -> (partialValue: Int64, overflow: Bool),
    double: (Double, Double) -> Double
  ) throws(RuleFailure) -> RuleValue {
    if case .int(let lhs) = left, case .int(let rhs) = right {
      let (result, overflow) = integer(lhs, rhs)
      if !overflow { return .int(result) }
    }
    return try finite(double(Self.double(left), Self.double(right)))
  }

  static func double(_ number: Number) -> Double {
    switch number {
    case .int(let int): Double(int)
    case .double(let double): double
    }
  }

  private static func finite(_ double: Double) throws(RuleFailure) -> RuleValue {
    guard double.isFinite else {
      throw RuleFailure(message: "the result \(double) is not a finite number")
    }
    return .double(double)
  }

  static func text(ofNumber value: RuleValue) throws(RuleFailure) -> String {
    switch value {
    case .int(let int):
      return String(int)
    case .double(let double):
      if double.rounded() == double, abs(double) < 9.2e18 { return String(Int64(double)) }
      return String(double)
    default:
      throw RuleFailure(message: "+ joins a string with a string or a number")
    }
  }

  /// Strict equality: same type and value; numbers by value; strings by scalars.
  static func equals(_ left: RuleValue, _ right: RuleValue) -> Bool {
    switch (left, right) {
    case (.null, .null): true
    case (.bool(let lhs), .bool(let rhs)): lhs == rhs
    case (.string(let lhs), .string(let rhs)):
      bytes(of: lhs) { left in bytes(of: rhs) { right in left.elementsEqual(right) } }
    case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
      compareNumbers(left, right) == 0
    default: false
    }
  }

  /// The order of two numbers or two strings: negative, zero or positive.
  static func order(_ left: RuleValue, _ right: RuleValue, _ symbol: String)
    throws(RuleFailure) -> Int
  {
    switch (left, right) {
    case (.string(let lhs), .string(let rhs)):
      return bytes(of: lhs) { left in
        bytes(of: rhs) { right in
          left.lexicographicallyPrecedes(right) ? -1 : left.elementsEqual(right) ? 0 : 1
        }
      }
    case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
      return compareNumbers(left, right)
    default:
      throw RuleFailure(
        message: "\(symbol) cannot compare \(left.kindDescription) with \(right.kindDescription)")
    }
  }

  /// The exact order of two numbers (integers and floating numbers mixed).
  private static func compareNumbers(_ left: RuleValue, _ right: RuleValue) -> Int {
    switch (left, right) {
    case (.int(let lhs), .int(let rhs)): lhs < rhs ? -1 : lhs == rhs ? 0 : 1
    case (.double(let lhs), .double(let rhs)): lhs < rhs ? -1 : lhs == rhs ? 0 : 1
    case (.int(let lhs), .double(let rhs)): compare(lhs, rhs)
    case (.double(let lhs), .int(let rhs)): -compare(rhs, lhs)
    default: 0
    }
  }

  private static func compare(_ integer: Int64, _ double: Double) -> Int {
    if double >= 9_223_372_036_854_775_808.0 { return -1 }
    if double < -9_223_372_036_854_775_808.0 { return 1 }
    let floor = double.rounded(.down)
    let floorInteger = Int64(floor)
    if integer != floorInteger { return integer < floorInteger ? -1 : 1 }
    return floor == double ? 0 : -1
  }
}

extension RuleExpression.StringMethod {
  /// The method's name, for messages.
  var name: String {
    switch self {
    case .length: "length"
    case .contains: "contains()"
    case .beginsWith: "beginsWith()"
    case .endsWith: "endsWith()"
    case .replace: "replace()"
    case .toLowerCase: "toLowerCase()"
    case .toUpperCase: "toUpperCase()"
    case .matches: "matches()"
    }
  }
}
