/// The increment server value, `{".sv": {"increment": n}}`, as hosted realtime databases accept
/// it inside written data: the back end replaces it with the value it finds there plus `n`.
extension JSONValue {
  /// The key of the step inside an increment placeholder.
  static let incrementKey: WebcomKey = "increment"

  /// The step of an increment placeholder's inner object `{"increment": n}` (a number), nil
  /// for any other value.
  static func incrementStep(of inner: JSONValue) -> JSONValue? {
    guard case .object(let object) = inner, object.count == 1, let only = object.first,
      only.key == incrementKey
    else { return nil }
    switch only.value {
    case .int, .double: return only.value
    default: return nil
    }
  }

  /// The step when this value is the placeholder `{".sv": {"increment": n}}`, else nil.
  var serverIncrementStep: JSONValue? {
    guard case .object(let object) = self, object.count == 1, let only = object.first,
      only.key == JSONValue.serverValueKey
    else { return nil }
    return JSONValue.incrementStep(of: only.value)
  }

  /// Whether the value holds an increment placeholder anywhere.
  var containsServerIncrements: Bool {
    guard case .object(let object) = self else { return false }
    if serverIncrementStep != nil { return true }
    return object.containsValue { $0.containsServerIncrements }
  }

  /// The value with every increment placeholder replaced by the number it stands for, given
  /// the value `current` stored where this value is written (each placeholder reads the part of
  /// `current` at its own place).
  ///
  /// As hosted realtime databases do: the step is added to the number found there (integers
  /// stay integers unless the sum overflows or a floating number takes part); where there is no
  /// number (nothing, a string, an object), the result is the step itself.
  ///
  /// - Throws: ``WebcomError`` with code `invalidValue` when a sum is not finite.
  func resolvingServerIncrements(against current: JSONValue) throws(WebcomError) -> JSONValue {
    guard case .object(let object) = self else { return self }
    if let step = serverIncrementStep {
      return try JSONValue.sum(of: current, and: step)
    }
    var result = object
    for (key, child) in object where child.containsServerIncrements {
      result = result.setting(
        try child.resolvingServerIncrements(against: current[key]), for: key)
    }
    return .object(result)
  }

  /// `base + step` as an increment computes it (the step alone when `base` is not a number).
  private static func sum(of base: JSONValue, and step: JSONValue) throws(WebcomError)
    -> JSONValue
  {
    let delta: Double
    switch step {
    case .int(let integer): delta = Double(integer)
    case .double(let double): delta = double
    default: return step
    }
    if case .int(let integer) = step, case .int(let number) = base {
      let (sum, overflow) = number.addingReportingOverflow(integer)
      if !overflow { return .int(sum) }
    }
    switch base {
    case .int(let number):
      return try finite(Double(number) + delta, culprit: "the result of the increment by \(step)")
    case .double(let number):
      return try finite(number + delta, culprit: "the result of the increment by \(step)")
    default:
      return step
    }
  }
}
