/// What a ``ValueEncoding`` has encoded so far.
enum ValueEncoderStorage {
  /// Nothing yet.
  case empty
  /// A finished value.
  case value(JSONValue)
  /// A keyed container's members, still open to writes.
  case object(EncodedObject)
  /// An unkeyed container's elements, still open to writes.
  case array(EncodedArray)

  /// The normalised value; nothing encoded gives null (as `JSONEncoder` gives `{}`).
  func finished() throws(WebcomError) -> JSONValue {
    switch self {
    case .empty: .null
    case .value(let value): value
    case .object(let object): try object.finished()
    case .array(let array): try array.finished()
    }
  }
}
