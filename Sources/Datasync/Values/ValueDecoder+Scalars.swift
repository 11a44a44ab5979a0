import Foundation

// MARK: - Scalars

extension ValueDecoder {
  /// A string, or `nil` for other values.
  func string(_ value: JSONValue) -> String? {
    if case .string(let string) = value { return string }
    return nil
  }

  /// A Boolean, or `nil` for other values.
  func bool(_ value: JSONValue) -> Bool? {
    if case .bool(let bool) = value { return bool }
    return nil
  }

  /// An integer of type `T` from an integer that fits, or from an integral floating number that
  /// fits (as `JSONDecoder` reads its shortest text: beyond 2^53, the digits of that text), else
  /// `nil`.
  func integer<T: FixedWidthInteger>(_ value: JSONValue, as type: T.Type) -> T? {
    switch value {
    case .int(let int):
      return T(exactly: int)
    case .double(let double):
      guard let integer = T(exactly: double) else { return nil }
      if double.magnitude < 0x1p53 { return integer }
      return ValueDecoder.integer(fromShortestTextOf: double, as: T.self)
    default:
      return nil
    }
  }

  /// A `Double` from a number, or from a string named by the non-conforming float strategy,
  /// else `nil`.
  func double(_ value: JSONValue) -> Double? {
    switch value {
    case .double(let double): double
    case .int(let int): Double(int)
    default: nonConformingFloat(value, as: Double.self)
    }
  }

  /// A `Float` from a number (rounded as the number's JSON text would be), or from a string named
  /// by the non-conforming float strategy, else `nil`. Numbers beyond the range of `Float`, or
  /// that round to zero though they are not zero, give `nil`.
  func float(_ value: JSONValue) -> Float? {
    switch value {
    case .int(let int):
      return Float(int)
    case .double(let double):
      let float =
        ValueDecoder.isHalfwayBetweenFloats(double)
        ? Float(double.description) ?? Float(double) : Float(double)
      guard float.isFinite, float != 0 || double == 0 else { return nil }
      return float
    default:
      return nonConformingFloat(value, as: Float.self)
    }
  }

  private func nonConformingFloat<T: FloatingPoint>(_ value: JSONValue, as type: T.Type) -> T? {
    guard case .string(let text) = value,
      case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = floatStrategy,
      ValueDecoder.isWrittenWithoutEscapes(text)
    else { return nil }
    let bytes = text.utf8
    if bytes.elementsEqual(positiveInfinity.utf8) { return T.infinity }
    if bytes.elementsEqual(negativeInfinity.utf8) { return -T.infinity }
    if bytes.elementsEqual(nan.utf8) { return T.nan }
    return nil
  }

  /// Whether the JSON text of a string has no escape sequence (no `"`, `\\` or control
  /// character): `JSONDecoder` compares only such strings with the non-conforming float names.
  private static func isWrittenWithoutEscapes(_ text: String) -> Bool {
    !text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
  }

  /// Whether a `Double` lies exactly halfway between two adjacent `Float`s (or between the
  /// largest `Float` and 2^128, or between 0 and the smallest subnormal): there, converting the
  /// `Double` rounds to even, while reading its shortest text rounds towards the side the text
  /// falls on.
  static func isHalfwayBetweenFloats(_ double: Double) -> Bool {
    guard double.isFinite, double != 0 else { return false }
    let exponent = max(Int(double.exponent), Int(Float.leastNormalMagnitude.exponent))
    let halfUnits =
      double.magnitude
      * Double(sign: .plus, exponent: Float.significandBitCount + 1 - exponent, significand: 1)
    return halfUnits.rounded(.towardZero) == halfUnits
      && halfUnits.truncatingRemainder(dividingBy: 2) == 1
  }

  /// The integer written by the shortest text of an integral `Double` (`2^60` is written
  /// `1.152921504606847e+18`, which reads as 1152921504606847000), if it fits in `T`.
  static func integer<T: FixedWidthInteger>(fromShortestTextOf double: Double, as type: T.Type)
    -> T?
  {
    var magnitude: UInt64 = 0
    var isNegative = false
    var fractionDigits = 0
    var isInFraction = false
    var exponent = 0
    var isExponentNegative = false
    var isInExponent = false
    for byte in double.description.utf8 {
      switch byte {
      case UInt8(ascii: "-"):
        if isInExponent { isExponentNegative = true } else { isNegative = true }
      case UInt8(ascii: "+"):
        continue
      case UInt8(ascii: "."):
        isInFraction = true
      case UInt8(ascii: "e"), UInt8(ascii: "E"):
        isInExponent = true
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = UInt64(byte - UInt8(ascii: "0"))
        if isInExponent {
          exponent = exponent * 10 + Int(digit)
        } else {
          let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
          let (sum, carry) = times10.addingReportingOverflow(digit)
          guard !overflow, !carry else { return nil }
          magnitude = sum
          if isInFraction { fractionDigits += 1 }
        }
      default:
        return nil
      }
    }
    var scale = (isExponentNegative ? -exponent : exponent) - fractionDigits
    while scale < 0 {
      magnitude /= 10
      scale += 1
    }
    while scale > 0 {
      let (times10, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      guard !overflow else { return nil }
      magnitude = times10
      scale -= 1
    }
    guard let integer = T(exactly: magnitude) else { return nil }
    if isNegative { return T.isSigned ? 0 - integer : nil }
    return integer
  }
}

// MARK: - Arrays of scalars

extension ValueDecoder {
  /// An array of scalars, decoded as `Array.init(from:)` decodes it (an unkeyed container,
  /// then each element until the end, failing at the first element that is not a `Element`),
  /// with the element type known here, which spares the generic code and the container
  /// existential of the standard library's path; elements are read from the tree in key order.
  func array<Element>(
    _ value: JSONValue, at valuePath: ValueDecodingPath, of convert: (JSONValue) -> Element?
  ) throws -> [Element] {
    guard let count = value.arrayCount, case .object(let object) = value, let root = object.root
    else {
      throw unkeyedContainerFailure(for: value, at: valuePath)
    }
    var array: [Element] = []
    array.reserveCapacity(count)
    try appendElements(under: root, to: &array, at: valuePath, of: convert)
    return array
  }

  /// Appends the elements stored in the subtree under `node` to `array`, converted, gaps
  /// converted from null; `array` holds the elements before the subtree's first index.
  private func appendElements<Element>(
    under node: JSONObjectNode, to array: inout [Element], at valuePath: ValueDecodingPath,
    of convert: (JSONValue) -> Element?
  ) throws {
    if let left = node.left {
      try appendElements(under: left, to: &array, at: valuePath, of: convert)
    }
    let index = node.canonicalIndex!
    while array.count < index {
      try append(.null, to: &array, at: valuePath, of: convert)
    }
    try append(node.value, to: &array, at: valuePath, of: convert)
    if let right = node.right {
      try appendElements(under: right, to: &array, at: valuePath, of: convert)
    }
  }

  /// Appends `element` converted to `array`, or throws the error for the element at its index.
  private func append<Element>(
    _ element: JSONValue, to array: inout [Element], at valuePath: ValueDecodingPath,
    of convert: (JSONValue) -> Element?
  ) throws {
    guard let result = convert(element) else {
      throw failure(
        decoding: Element.self, from: element,
        at: valuePath.keys(appending: ValueDecodingKey.index(array.count)))
    }
    array.append(result)
  }
}
