/// One `name=value` parameter of a request's query string, percent-decoded.
///
/// In the query, `+` stands for a space (the form encoding that HTTP clients use), then `%XX`
/// escapes are decoded; a parameter without `=` has an empty value.
public struct HTTPQueryItem: Sendable, Hashable {
  /// The decoded name.
  public let name: String
  /// The decoded value (empty when the parameter has no `=`).
  public let value: String

  /// Creates a query item.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}
