/// Short descriptions of values for error messages.
extension JSONValue {
  /// The kind of the value with an article, for example "a string".
  var kindDescription: String {
    switch self {
    case .null: return "null"
    case .bool: return "a boolean"
    case .int, .double: return "a number"
    case .string: return "a string"
    case .object: return "an object"
    }
  }
}
